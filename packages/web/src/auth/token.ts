// The access token: `baton serve` prints a URL carrying it (`/?token=T`). The page takes it on
// first load, keeps it for the tab's life in sessionStorage, and removes it from the address
// bar, so it is not left in history, bookmarks or a shared screenshot.

export const TOKEN_KEY = "baton.token";

type TokenStore = { getItem(key: string): string | null; setItem(key: string, value: string): void };
type Place = { href: string };
type History = { replaceState(data: unknown, unused: string, url?: string): void };

export function takeToken(location: Place, storage: TokenStore, history: History): string | undefined {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl !== null && fromUrl !== "") {
    storage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    history.replaceState(null, "", `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  const stored = storage.getItem(TOKEN_KEY);
  return stored === null || stored === "" ? undefined : stored;
}
