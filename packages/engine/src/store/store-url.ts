/** A store URL as it may be shown: the password replaced. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the store URL";
  }
}
