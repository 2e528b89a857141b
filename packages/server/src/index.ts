/** `baton serve`: the HTTP API and its streams. */
export {};
