import { contractSuite } from "../contract/run-store.contract.ts";
import { fileStoreUnderTest } from "../contract/testing/stores-under-test.ts";

contractSuite("file store", fileStoreUnderTest);
