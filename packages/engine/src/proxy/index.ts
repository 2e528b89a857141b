export { InferenceProxy, tokenOf, type InferenceProxyOptions } from "./inference-proxy.ts";
export { RunGrant, RUN_TOKEN_PREFIX, type GrantLimits, type GrantOptions, type RefusalLimit } from "./run-grant.ts";
export { PRICE_TABLE, priceOf, costOf, type ModelPrice, type CostSource } from "./pricing.ts";
export { readKey, type KeySource } from "./key-source.ts";
export { PROXY_PROVIDERS, proxyRoute, type ProxyProvider, type WireApiName } from "./wire-routes.ts";
export { UsageTap, type CallUsage } from "./usage-tap.ts";
