import { z } from "zod";

/**
 * `[store]` in config.toml: where the project's runs are. Without it (and without `--store` or
 * `BATON_STORE`) they are in the embedded store in `.baton/`, which needs nothing.
 */
export const storeConfigSchema = z
  .strictObject({
    /** A PostgreSQL URL, `postgres://user@host:5432/database`, shared by every machine that runs or serves the project's runs. */
    url: z.string().regex(/^postgres(ql)?:\/\/\S+$/i, "a PostgreSQL URL: postgres://user@host:5432/database").optional(),
  })
  .default({});

export type StoreConfig = z.infer<typeof storeConfigSchema>;
