import assert from "node:assert/strict";
import { test } from "node:test";
import { isLoopbackHost } from "../serve/loopback.ts";
import { hostName, normalizeHost } from "./host-guard.ts";

test("the Host header's name: lower case, port cut, IPv6 in brackets; malformed ones are undefined", () => {
  assert.equal(hostName("LocalHost:8080"), "localhost");
  assert.equal(hostName("[::1]:7317"), "[::1]");
  assert.equal(hostName("127.0.0.1"), "127.0.0.1");
  for (const bad of ["", "a b", "host:port", "::1", "[::1", "x:99999999"]) assert.equal(hostName(bad), undefined, bad);
  assert.equal(normalizeHost("::1"), "[::1]");
  assert.equal(normalizeHost("Example.COM"), "example.com");
});

test("only loopback hosts count as local", () => {
  for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) assert.equal(isLoopbackHost(host), true, host);
  for (const host of ["0.0.0.0", "::", "192.168.1.2", "example.com", "localhost.example.com", "128.0.0.1"]) assert.equal(isLoopbackHost(host), false, host);
});
