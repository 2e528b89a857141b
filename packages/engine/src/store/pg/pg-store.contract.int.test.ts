import { contractSuite } from "../contract/run-store.contract.ts";
import { pgStoreUnderTest } from "../contract/testing/stores-under-test.ts";

contractSuite("postgres store", pgStoreUnderTest);
