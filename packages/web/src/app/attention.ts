// The tab says when a run waits for a person: its title starts with the count, and its icon
// gets a dot, so a person sees it from another tab.

const ICON_IDLE = svgIcon("#5f6670", false);
const ICON_WAITING = svgIcon("#d92d20", true);

function svgIcon(color: string, dot: boolean): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="4" y="13" width="24" height="6" rx="3" fill="${color}" transform="rotate(-35 16 16)"/>${dot ? '<circle cx="25" cy="7" r="7" fill="#d92d20"/>' : ""}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The title, with "(N waiting)" in front when N runs wait for a person. */
export function titleWithAttention(title: string, waiting: number): string {
  return waiting > 0 ? `(${waiting} waiting) ${title}` : title;
}

/** Sets the page's title and icon. */
export function showAttention(title: string, waiting: number): void {
  document.title = titleWithAttention(title, waiting);
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link === null) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.href = waiting > 0 ? ICON_WAITING : ICON_IDLE;
  link.dataset["waiting"] = waiting > 0 ? "true" : "false";
}
