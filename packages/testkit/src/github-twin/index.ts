// A loopback GitHub REST API twin for pull requests: nothing a test opens leaves the machine.
export { GitHubTwin, type GitHubFault, type GitHubTwinOptions, type TwinPullRequest, type TwinRequest } from "./github-twin.ts";
