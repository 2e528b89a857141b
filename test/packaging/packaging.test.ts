// The packages as users install them. One test file, so that one process builds and packs
// once and no two processes write the packages' dist/ at the same time.
import "./install-protocol.ts";
import "./install-client.ts";
import "./readme-host.ts";
import "./install-cli.ts";
