/**
 * Names that mark an environment variable as holding a secret. AUTH, but not AUTHOR: git's
 * GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL would otherwise be scrubbed from every log (AUTHORIZATION
 * still counts).
 */
const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD|CREDENTIAL|AUTH(?!ORS?(?:_|$))/i;
/** Shorter values are too likely to occur by chance ("true", a port) to be worth hiding. */
export const MIN_SECRET_LENGTH = 8;

/** Whether an environment variable holds a secret: a secret-looking name and a value long enough. */
export function isSecretVariable(name: string, value: string | undefined): value is string {
  return value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(name);
}

/**
 * The values of environment variables whose names look secret. These exact values are
 * scrubbed from every event and from the ACP transcript.
 */
export function secretsFromEnv(env: Record<string, string | undefined>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (isSecretVariable(name, value)) values.add(value);
  }
  return [...values];
}
