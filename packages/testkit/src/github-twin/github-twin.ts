import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** One fault the twin plays for the next matching requests (`times`, default every one). */
export type GitHubFault =
  | { kind: "status"; status: 403 | 404 | 422 | 500; message: string; times?: number }
  /** GitHub's primary rate limit: 403 with `x-ratelimit-remaining: 0` and the reset time. */
  | { kind: "rate_limited"; resetInSeconds: number; times?: number };

export type GitHubTwinOptions = {
  /** The one token the twin takes (`Authorization: token …` or `Bearer …`); others get a 401. */
  token: string;
  /** Repositories the twin knows, `owner/name`; others get a 404. */
  repos: readonly string[];
  /** A git repository (a bare remote) whose branches are the twin's: a pull request's head must be pushed there. */
  remotePath?: string;
  host?: string;
};

export type TwinPullRequest = { number: number; repo: string; title: string; body: string; head: string; base: string; draft: boolean; head_sha: string; html_url: string };

export type TwinRequest = { method: string; path: string; /** Whether it came with the twin's token. */ authorized: boolean; /** The request as received, with the token replaced. */ headers: Record<string, string> };

/**
 * A loopback GitHub REST API twin: the endpoints Baton uses to open a pull request
 * (`POST /repos/{owner}/{repo}/pulls`, `GET /repos/{owner}/{repo}/pulls`, `GET /repos/{owner}/{repo}`),
 * with token auth, GitHub's 422 validation errors (a head not pushed, a pull request already
 * open for it), scripted 403/404/422/500 faults and the primary rate limit's 403.
 *
 * @example
 * await using twin = await GitHubTwin.start({ token: "t", repos: ["acme/app"], remotePath: bare });
 * // point the client at twin.url, open a pull request, then:
 * assert.equal(twin.pulls[0]?.head, "baton/1-work");
 */
export class GitHubTwin implements AsyncDisposable {
  readonly pulls: TwinPullRequest[] = [];
  readonly requests: TwinRequest[] = [];
  #server: Server;
  #url = "";
  #faults: GitHubFault[] = [];
  readonly #options: GitHubTwinOptions;

  private constructor(options: GitHubTwinOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => send(response, 500, { message: `github twin: ${(error as Error).message}` }));
    });
  }

  static async start(options: GitHubTwinOptions): Promise<GitHubTwin> {
    const twin = new GitHubTwin(options);
    await new Promise<void>((resolve, reject) => {
      twin.#server.once("error", reject);
      twin.#server.listen(0, options.host ?? "127.0.0.1", () => resolve());
    });
    const { address, port } = twin.#server.address() as AddressInfo;
    twin.#url = `http://${address}:${port}`;
    return twin;
  }

  /** The API's base URL (what `[delivery] github_api_url` is set to). */
  get url(): string {
    return this.#url;
  }

  /** Plays `fault` for the next requests that reach an endpoint (after auth). */
  fail(fault: GitHubFault): void {
    this.#faults.push(fault);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const method = request.method ?? "GET";
    const body = await readJson(request);
    const credential = /^(?:token|bearer)\s+(.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const authorized = credential === this.#options.token;
    this.requests.push({ method, path, authorized, headers: hiddenToken(request.headers) });
    if (!authorized) return send(response, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
    const fault = this.#faults[0];
    if (fault !== undefined) {
      if (fault.times !== undefined && --fault.times <= 0) this.#faults.shift();
      if (fault.kind === "rate_limited") {
        const reset = Math.ceil(Date.now() / 1000) + fault.resetInSeconds;
        return send(response, 403, { message: "API rate limit exceeded for user." }, { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) });
      }
      return send(response, fault.status, { message: fault.message });
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/pulls)?$/.exec(path);
    const repo = match === null ? undefined : `${match[1] ?? ""}/${match[2] ?? ""}`;
    if (repo === undefined || !this.#options.repos.includes(repo)) return send(response, 404, { message: "Not Found" });
    if (match?.[3] === undefined) return method === "GET" ? send(response, 200, { full_name: repo, default_branch: "main" }) : send(response, 404, { message: "Not Found" });
    if (method === "GET") return send(response, 200, this.pulls.filter((pull) => pull.repo === repo).map((pull) => this.#view(pull)));
    if (method !== "POST") return send(response, 404, { message: "Not Found" });
    return this.#createPull(response, repo, body);
  }

  async #createPull(response: ServerResponse, repo: string, body: unknown): Promise<void> {
    const input = (body ?? {}) as Record<string, unknown>;
    const missing = ["title", "head", "base"].filter((field) => typeof input[field] !== "string" || input[field] === "");
    if (missing.length > 0) return invalid(response, missing.map((field) => ({ resource: "PullRequest", code: "missing_field", field })));
    const head = String(input["head"]);
    const base = String(input["base"]);
    const headSha = await this.#branchSha(head);
    if (headSha === null) return invalid(response, [{ resource: "PullRequest", code: "invalid", field: "head" }]);
    if ((await this.#branchSha(base)) === null) return invalid(response, [{ resource: "PullRequest", code: "invalid", field: "base" }]);
    if (this.pulls.some((pull) => pull.repo === repo && pull.head === head)) {
      return invalid(response, [{ resource: "PullRequest", code: "custom", message: `A pull request already exists for ${repo.split("/")[0] ?? ""}:${head}.` }]);
    }
    const number = this.pulls.length + 1;
    const pull: TwinPullRequest = { number, repo, title: String(input["title"]), body: typeof input["body"] === "string" ? input["body"] : "", head, base, draft: input["draft"] === true, head_sha: headSha ?? "", html_url: `${this.#url}/${repo}/pull/${number}` };
    this.pulls.push(pull);
    send(response, 201, this.#view(pull));
  }

  /** The branch's head in the remote; undefined without a remote (anything goes), null when it is not there. */
  async #branchSha(branch: string): Promise<string | null | undefined> {
    if (this.#options.remotePath === undefined) return undefined;
    try {
      return (await exec("git", ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`], { cwd: this.#options.remotePath })).stdout.trim();
    } catch {
      return null;
    }
  }

  #view(pull: TwinPullRequest): Record<string, unknown> {
    return { number: pull.number, html_url: pull.html_url, url: `${this.#url}/repos/${pull.repo}/pulls/${pull.number}`, state: "open", title: pull.title, body: pull.body, draft: pull.draft, head: { ref: pull.head, sha: pull.head_sha }, base: { ref: pull.base } };
  }
}

function invalid(response: ServerResponse, errors: Record<string, unknown>[]): void {
  send(response, 422, { message: "Validation Failed", errors, documentation_url: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request" });
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function hiddenToken(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = name === "authorization" ? "[token]" : String(value);
  return out;
}
