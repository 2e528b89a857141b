export type PullRequestInput = {
  apiUrl: string;
  /** `owner/name`. */
  repo: string;
  token: string;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
};

export type OpenedPullRequest = { kind: "created"; url: string; number: number; headSha: string; draft: boolean } | { kind: "failed"; status?: number; message: string; hint: string };

/** Octokit's own logging stays off: nothing about a request (or its token) reaches Baton's output. */
const SILENT = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Opens a pull request through GitHub's REST API (`POST /repos/{owner}/{repo}/pulls`) with
 * `@octokit/rest`. The token goes in the request's Authorization header only. A failure is
 * explained by what GitHub answered: bad credentials, a permission or rate limit (403), an
 * unknown repository (404), a request GitHub could not take (422, with its reasons).
 * Octokit loads here, on the first pull request: the commands that never open one (resume,
 * approve) do not pay for its modules at start.
 */
export async function openPullRequest(input: PullRequestInput, signal?: AbortSignal): Promise<OpenedPullRequest> {
  const [owner = "", repo = ""] = input.repo.split("/");
  const { Octokit } = await import("@octokit/rest");
  const octokit = new Octokit({ auth: input.token, baseUrl: input.apiUrl.replace(/\/+$/, ""), userAgent: "baton", log: SILENT, request: { signal } });
  try {
    const { data } = await octokit.rest.pulls.create({ owner, repo, head: input.head, base: input.base, title: input.title, body: input.body, draft: input.draft });
    return { kind: "created", url: data.html_url, number: data.number, headSha: data.head.sha, draft: data.draft === true };
  } catch (error) {
    return explain(error, input);
  }
}

type ApiError = { status?: unknown; message?: unknown; response?: { headers?: Record<string, string | undefined>; data?: unknown } };

function explain(error: unknown, input: PullRequestInput): OpenedPullRequest {
  const failure = error as ApiError;
  const status = typeof failure.status === "number" ? failure.status : undefined;
  const data = (failure.response?.data ?? {}) as { message?: unknown; errors?: unknown };
  const said = typeof data.message === "string" ? data.message : error instanceof Error ? error.message : String(error);
  const again = `its branch ${input.head} is pushed: open the pull request with baton pr, or by hand on GitHub`;
  if (status === undefined) return { kind: "failed", message: `could not reach GitHub's API at ${input.apiUrl}: ${said}`, hint: `check [delivery] github_api_url and the network; ${again}` };
  if (status === 401) return { kind: "failed", status, message: `GitHub refused the token (401 ${said})`, hint: `set GITHUB_TOKEN (or GH_TOKEN) to a valid token; ${again}` };
  if (status === 403 || status === 429) {
    const headers = failure.response?.headers ?? {};
    if (headers["x-ratelimit-remaining"] === "0" || status === 429) {
      const reset = Number(headers["x-ratelimit-reset"]);
      const when = Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : "";
      return { kind: "failed", status, message: `GitHub's API rate limit is used up${when} (${status} ${said})`, hint: `wait, then ${again}` };
    }
    return { kind: "failed", status, message: `GitHub refused to open a pull request in ${input.repo} (403 ${said})`, hint: `the token needs write access to pull requests (and contents) of ${input.repo}; ${again}` };
  }
  if (status === 404) return { kind: "failed", status, message: `GitHub has no repository ${input.repo} that the token can see (404 ${said})`, hint: `set [delivery] github_repo = "owner/name", or a token that can see it; ${again}` };
  if (status === 422) return { kind: "failed", status, message: `GitHub could not open the pull request (422 ${said}${reasons(data.errors)})`, hint: again };
  return { kind: "failed", status, message: `GitHub's API answered ${status} (${said})`, hint: again };
}

/** GitHub's 422 reasons: `errors[].message`, or the field and its code. */
function reasons(errors: unknown): string {
  if (!Array.isArray(errors) || errors.length === 0) return "";
  const lines = errors.map((entry: unknown) => {
    const item = (entry ?? {}) as Record<string, unknown>;
    if (typeof item["message"] === "string") return item["message"];
    return `${String(item["field"] ?? "?")} ${String(item["code"] ?? "invalid")}`;
  });
  return `: ${lines.join("; ")}`;
}
