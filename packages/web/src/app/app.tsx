import type { Api } from "../api/client.ts";
import { RunPage } from "../run/run-page.tsx";
import { RunListPage } from "../runs/run-list-page.tsx";
import { useHashRoute } from "./use-hash-route.ts";

export function App({ api }: { api: Api | undefined }) {
  const route = useHashRoute();
  return (
    <>
      <header class="top">
        <a class="brand" href="#/">
          Baton
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={route.page === "runs" ? "page" : undefined}>
            Runs
          </a>
        </nav>
      </header>
      <main>
        {api === undefined ? (
          <NoToken />
        ) : route.page === "run" ? (
          <RunPage key={route.ref} api={api} runRef={route.ref} />
        ) : (
          <RunListPage api={api} />
        )}
      </main>
    </>
  );
}

function NoToken() {
  return (
    <section class="notice" role="alert">
      <h1>Not signed in</h1>
      <p>
        Open the address <code>baton serve</code> printed: it carries the access token (<code>?token=…</code>).
      </p>
    </section>
  );
}
