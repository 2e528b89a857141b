// Generated from docs/openapi.json by openapi-typescript: do not edit. `node packages/client/src/api/write-api-types.ts` rewrites it.
export interface paths {
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List runs, newest first */
        get: operations["listRuns"];
        put?: never;
        /**
         * Start a run (the CLI, detached: the run outlives the request and the server)
         * @description `task` is required unless a `workflow` is given (its goal may be the task); `auto_approve` needs a `workflow`.
         */
        post: operations["startRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One run */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a run's durable events by seq
         * @description With Accept: application/x-ndjson the events come one JSON envelope a line, unpaged unless limit is given (then any positive limit); as JSON, at most 10000 a page.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's events, live (SSE, id = seq); ends after the run's final event
         * @description Server-sent events. First `retry: 2000`. Each durable event: `id: <cursor>` and `data: <Event JSON>` (event name `message`; see the Event schema). Ephemeral events (`agent.delta`, runs written by the server's own process only) have no id. `: ping` comments keep a quiet stream open. A client that falls too far behind gets `event: resync` with `data: {"after": N}` and is disconnected: reconnect with Last-Event-ID N to get the rest.
         */
        get: operations["followRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/outputs/{call}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tool call's complete output (the trace store, or its event when the preview holds it whole) */
        get: operations["getOutput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The files the run captured ([artifacts] include): path, bytes, sha256, media type, stage, url */
        get: operations["listArtifacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/artifacts/{digest}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One captured file's bytes: pictures inline, anything else as a download */
        get: operations["getArtifact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the run changed (baton diff), by file
         * @description The run's commit against its base once committed (source: commit), else its workspace's working changes, untracked files included (source: workspace). 409 no_workspace before its workspace is ready, or when it made no commit and its workspace is gone.
         */
        get: operations["getRunDiff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the run's process to cancel it */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve the gate a paused workflow run waits at (its first option that is not a way back), and resume the run
         * @description Checked against the run's events first: a run that is not paused at a gate (409 not_paused), or an answer that fits no option (422 invalid_answer), changes nothing. Then `baton approve|reject|answer` records the decision (by, via, comment) and resumes the run in a detached process: follow the run's stream for the rest.
         */
        post: operations["approveGate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject the gate a paused workflow run waits at (its way back, or the gate fails), and resume the run
         * @description Checked against the run's events first: a run that is not paused at a gate (409 not_paused), or an answer that fits no option (422 invalid_answer), changes nothing. Then `baton approve|reject|answer` records the decision (by, via, comment) and resumes the run in a detached process: follow the run's stream for the rest.
         */
        post: operations["rejectGate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer the gate a paused workflow run waits at with an option's label or key, or free text at a freeform gate, and resume the run
         * @description Checked against the run's events first: a run that is not paused at a gate (409 not_paused), or an answer that fits no option (422 invalid_answer), changes nothing. Then `baton approve|reject|answer` records the decision (by, via, comment) and resumes the run in a detached process: follow the run's stream for the rest.
         */
        post: operations["answerGate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/input": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send text to the running run's agent (baton steer)
         * @description The run records input.queued (or input.rejected: too_long past [input] max_chars after redaction, too_many waiting), then input.delivered: mid_turn to an agent that takes notices, next_turn otherwise. A run that is not running is 409 and nothing is left for it.
         */
        post: operations["sendInput"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/permissions/{call}/allow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Allow a tool call a permission rule asks a person about
         * @description Checked against the run's events first: the run must be running (409 not_running, run_ended) and the call must wait for a person (404 unknown_call; 409 answer_conflict once it was answered, naming the answer). The first answer wins. Follow the run's stream for permission.resolved (by: human, who).
         */
        post: operations["allowPermission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/permissions/{call}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deny a tool call a permission rule asks a person about
         * @description Checked against the run's events first: the run must be running (409 not_running, run_ended) and the call must wait for a person (404 unknown_call; 409 answer_conflict once it was answered, naming the answer). The first answer wins. Follow the run's stream for permission.resolved (by: human, who).
         */
        post: operations["denyPermission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{ref}/questions/{question}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a question the agent asked (ACP elicitation, baton reply)
         * @description Checked against the run's events first: the run must be running (409 not_running, run_ended), the question must wait for a person (404 unknown_question; 409 answer_conflict once it was answered, naming the answer), and an accept's content must fill the form as question.asked's fields say (422 invalid_answer, naming the field). The first answer wins. Follow the run's stream for question.answered (by: human, who).
         */
        post: operations["replyToQuestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The newest runs with their figures (duration, cost, tokens, stage, branch) and whether a person is awaited */
        get: operations["getOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The cross-run feed, live (SSE, id = pos); never ends
         * @description Server-sent events. First `retry: 2000`. Each durable event: `id: <cursor>` and `data: <Event JSON>` (event name `message`; see the Event schema). Ephemeral events (`agent.delta`, runs written by the server's own process only) have no id. `: ping` comments keep a quiet stream open. A client that falls too far behind gets `event: resync` with `data: {"after": N}` and is disconnected: reconnect with Last-Event-ID N to get the rest. Envelopes carry pos and number.
         */
        get: operations["followFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A run as the catalog knows it: what `baton runs` lists. */
        RunSummary: {
            id: string;
            number: number;
            status: components["schemas"]["RunStatus"];
            task?: string;
            agent?: string;
            model?: string;
            created_at?: string;
            started_at?: string;
            ended_at?: string;
            /** @description the process that last started (or resumed) the run */
            pid?: number;
            /** @description seq of the run's last durable event */
            last_seq: number;
            /** @description bytes of the log that are durable and indexed */
            committed_bytes: number;
        };
        /** @enum {string} */
        RunStatus: "created" | "running" | "paused" | "succeeded" | "stopped" | "failed" | "cancelled";
        /** @description Every error the API answers: its code, a one-line message, and a hint when there is one. */
        Error: {
            error: {
                /**
                 * @description what went wrong, for programs: not_found, run_not_found, invalid_ref, not_paused, …
                 * @example run_not_found
                 */
                code: string;
                /** @description what went wrong, for people: one line */
                message: string;
                /** @description how to fix it, when the server knows */
                hint?: string;
            };
        };
        /** @description An event envelope (docs/schema/events.v1.json), discriminated by `type`. On the feed it also has `pos` and `number`. An event over the size cap has the truncation marker as its data ({truncated, original_bytes, limit_bytes}); a later protocol version may add types and fields. */
        Event: components["schemas"]["RunCreatedEvent"] | components["schemas"]["RunStartedEvent"] | components["schemas"]["RunPausedEvent"] | components["schemas"]["RunCompletedEvent"] | components["schemas"]["RunFailedEvent"] | components["schemas"]["RunCancelledEvent"] | components["schemas"]["LogEvent"] | components["schemas"]["WorkerLostEvent"] | components["schemas"]["WorkspaceReadyEvent"] | components["schemas"]["FileChangedEvent"] | components["schemas"]["GitCommittedEvent"] | components["schemas"]["AgentStartedEvent"] | components["schemas"]["TurnStartedEvent"] | components["schemas"]["AgentDeltaEvent"] | components["schemas"]["AgentMessageEvent"] | components["schemas"]["AgentThoughtEvent"] | components["schemas"]["ToolStartedEvent"] | components["schemas"]["ToolCompletedEvent"] | components["schemas"]["PlanUpdatedEvent"] | components["schemas"]["PermissionRequestedEvent"] | components["schemas"]["PermissionResolvedEvent"] | components["schemas"]["UsageUpdatedEvent"] | components["schemas"]["TurnCompletedEvent"] | components["schemas"]["AgentFinishedEvent"] | components["schemas"]["RunnerEventEvent"] | components["schemas"]["AgentCompactedEvent"] | components["schemas"]["BudgetUpdatedEvent"] | components["schemas"]["LimitWarningEvent"] | components["schemas"]["LimitReachedEvent"] | components["schemas"]["ProviderErrorEvent"] | components["schemas"]["RetryScheduledEvent"] | components["schemas"]["ModelSwitchedEvent"] | components["schemas"]["StallDetectedEvent"] | components["schemas"]["RepeatDetectedEvent"] | components["schemas"]["HandbackRequestedEvent"] | components["schemas"]["InputQueuedEvent"] | components["schemas"]["InputDeliveredEvent"] | components["schemas"]["InputRejectedEvent"] | components["schemas"]["QuestionAskedEvent"] | components["schemas"]["QuestionAnsweredEvent"] | components["schemas"]["ModelRequestCompletedEvent"] | components["schemas"]["ModelRequestRefusedEvent"] | components["schemas"]["WorkflowLoadedEvent"] | components["schemas"]["StageStartedEvent"] | components["schemas"]["StageCompletedEvent"] | components["schemas"]["StageFailedEvent"] | components["schemas"]["StageRetryingEvent"] | components["schemas"]["RouteSelectedEvent"] | components["schemas"]["ContextUpdatedEvent"] | components["schemas"]["CheckpointSavedEvent"] | components["schemas"]["ParallelStartedEvent"] | components["schemas"]["BranchStartedEvent"] | components["schemas"]["BranchCompletedEvent"] | components["schemas"]["ParallelCompletedEvent"] | components["schemas"]["IntegrationCompletedEvent"] | components["schemas"]["IntegrationConflictedEvent"] | components["schemas"]["ApprovalRequestedEvent"] | components["schemas"]["ApprovalResolvedEvent"] | components["schemas"]["WaitStartedEvent"] | components["schemas"]["SetupStartedEvent"] | components["schemas"]["SetupCommandCompletedEvent"] | components["schemas"]["SetupCompletedEvent"] | components["schemas"]["SetupFailedEvent"] | components["schemas"]["ValidationCompletedEvent"] | components["schemas"]["ValidationFixRequestedEvent"] | components["schemas"]["GitMergedEvent"] | components["schemas"]["MergeConflictedEvent"] | components["schemas"]["GitPushedEvent"] | components["schemas"]["PullRequestCreatedEvent"] | components["schemas"]["PullRequestFailedEvent"] | components["schemas"]["ArtifactCapturedEvent"] | components["schemas"]["ArtefactWrittenEvent"] | components["schemas"]["SubtaskUpdatedEvent"] | components["schemas"]["SubtaskIntegratedEvent"];
        /** @description A run was created: what it will do, with which agent, in which repository. */
        RunCreatedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.created";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                number: number;
                task: string;
                agent: string;
                model?: string;
                workflow?: string;
                origin?: {
                    run: string;
                    number?: number;
                    stage: string;
                    visit: number;
                    commit?: string;
                } & {
                    [key: string]: unknown;
                };
                repo: {
                    root: string;
                    branch?: string;
                    sha?: string;
                    dirty: boolean;
                } & {
                    [key: string]: unknown;
                };
                limits?: {
                    [key: string]: number;
                };
                labels?: {
                    [key: string]: string;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A process took the run's log and started (or resumed) work on it. */
        RunStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                attempt: number;
                resumed: boolean;
                pid: number;
                host: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run stopped to wait for a human; it can be resumed. */
        RunPausedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.paused";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                reason: string;
                gate?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run ended: its work is done (succeeded) or it was stopped (stopped) at a limit (`stopped_by` time, cost, tokens, tool_calls, requests, repeats) or by the model provider (`stopped_by` provider, with `provider_error`), its work kept. */
        RunCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                /** @enum {string} */
                status: "succeeded" | "stopped";
                stopped_by?: string;
                /** @enum {string} */
                provider_error?: "rate_limited" | "overloaded" | "unreachable" | "quota" | "unauthorized" | "other";
                handed_back?: boolean;
                usage: {
                    input_tokens: number;
                    output_tokens: number;
                    cache_read_tokens?: number;
                    cache_write_tokens?: number;
                } & {
                    [key: string]: unknown;
                };
                cost_usd?: number;
                active_ms: number;
                duration_ms: number;
                commit?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run ended in failure. `error.code` is stable; `interrupted` means its writer died. */
        RunFailedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.failed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                error: {
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                };
                /** @enum {string} */
                provider_error?: "rate_limited" | "overloaded" | "unreachable" | "quota" | "unauthorized" | "other";
                usage?: {
                    input_tokens: number;
                    output_tokens: number;
                    cache_read_tokens?: number;
                    cache_write_tokens?: number;
                } & {
                    [key: string]: unknown;
                };
                active_ms?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run was cancelled before it ended by itself. */
        RunCancelledEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.cancelled";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                by: string;
                reason?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A diagnostic message. */
        LogEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "log";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                /** @enum {string} */
                level: "debug" | "info" | "warn" | "error";
                code?: string;
                message: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The worker running this dispatched run stopped heartbeating and its lease expired; another worker took the run over (a new epoch fences the lost one off). What follows: the run continues from its last checkpoint, or fails `worker_lost`. */
        WorkerLostEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "worker.lost";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                previous_owner: string;
                epoch: number;
                last_seq: number;
                owner: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run's working directory is ready: its own git worktree on its own branch (`worktree`), or the repository itself (`in_place`). */
        WorkspaceReadyEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "workspace.ready";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                path: string;
                /** @enum {string} */
                kind: "worktree" | "in_place";
                branch?: string;
                base?: string;
                base_branch?: string;
                base_sha?: string;
                included_dirty?: string[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A file in the workspace changed, as reported by the agent's tool calls (diffs, and the locations of edit, delete and move calls). Once per path per turn; the path is relative to the workspace. */
        FileChangedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "file.changed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                path: string;
                /** @enum {string} */
                change: "added" | "modified" | "deleted";
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Baton committed the workspace's changes on the run's branch when the agent's work ended (whatever its outcome). No changes, no commit and no event. */
        GitCommittedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "git.committed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                sha: string;
                branch: string;
                message: string;
                files: ({
                    path: string;
                    /** @enum {string} */
                    change: "added" | "modified" | "deleted" | "renamed";
                    from?: string;
                } & {
                    [key: string]: unknown;
                })[];
                stage?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description An agent session is ready: which agent, which version and model it reports, what it can do. */
        AgentStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "agent.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                agent: string;
                agent_version?: string;
                model?: string;
                protocol_version: number;
                capabilities?: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A prompt was sent to the agent; `reason` says why. */
        TurnStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "turn.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                turn: number;
                /** @enum {string} */
                reason: "task" | "fix" | "notice" | "handback" | "reminder" | "resend" | "steer";
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Ephemeral: text arriving while the agent streams. Never logged, no seq. */
        AgentDeltaEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "agent.delta";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                /** @enum {string} */
                kind: "text" | "thought";
                text: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The complete text of one agent message. */
        AgentMessageEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "agent.message";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                turn: number;
                text: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The complete text of one reasoning block. */
        AgentThoughtEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "agent.thought";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                turn: number;
                text: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent started a tool call. `call` pairs it with its `tool.completed`. */
        ToolStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "tool.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                call: string;
                tool: string;
                kind: string;
                title?: string;
                input?: unknown;
                target?: string;
                parent_call?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A tool call finished. Its output is summarized by a preview; the whole of it lives in the trace store. */
        ToolCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "tool.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                call: string;
                tool: string;
                /** @enum {string} */
                status: "completed" | "failed" | "cancelled";
                is_error: boolean;
                duration_ms: number;
                exit_code?: number;
                timed_out?: boolean;
                output_chars: number;
                preview?: string;
                output_file?: string;
                error?: {
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent's whole plan, never a diff. */
        PlanUpdatedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "plan.updated";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                entries: ({
                    content: string;
                    status: string;
                    priority?: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent asked for permission to run a tool call. `awaiting: "person"`: a rule says `ask`, and the call waits for a person's answer (`baton allow|deny`, the API) for at most `timeout_ms` (absent: no timeout), then is denied. */
        PermissionRequestedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "permission.requested";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                call: string;
                tool: string;
                options: ({
                    id: string;
                    kind: string;
                    name: string;
                } & {
                    [key: string]: unknown;
                })[];
                /** @enum {string} */
                awaiting?: "person";
                rule?: string;
                timeout_ms?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A permission request was answered; `rule` names what decided it. `by: "human"`: a person answered, `who` names them (the OS user, or the name the API client gave); an unanswered question is denied by `rule` `ask:timeout`. */
        PermissionResolvedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "permission.resolved";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                call: string;
                decision: string;
                option_id?: string;
                /** @enum {string} */
                by: "policy" | "human";
                rule: string;
                who?: string;
                reason?: string;
                always_for_run?: boolean;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Usage the agent reported. `basis` says whether the figures add to earlier ones (delta) or replace them (total). Context occupancy is not spend. */
        UsageUpdatedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "usage.updated";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                /** @enum {string} */
                basis: "delta" | "total";
                input_tokens?: number;
                output_tokens?: number;
                cache_read_tokens?: number;
                cache_write_tokens?: number;
                cost_usd?: number;
                context_used?: number;
                context_size?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent finished a turn. `stop_reason` is the agent's, or `error` with `error` set. */
        TurnCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "turn.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                turn: number;
                stop_reason: string;
                duration_ms: number;
                usage?: {
                    input_tokens: number;
                    output_tokens: number;
                    cache_read_tokens?: number;
                    cache_write_tokens?: number;
                } & {
                    [key: string]: unknown;
                };
                error?: {
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent's session ended and its process exited. */
        AgentFinishedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "agent.finished";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session?: string;
                turns: number;
                usage: {
                    input_tokens: number;
                    output_tokens: number;
                    cache_read_tokens?: number;
                    cache_write_tokens?: number;
                } & {
                    [key: string]: unknown;
                };
                exit_code?: number;
                signal?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Something the agent sent that Baton does not translate. Only its native type is kept, never its payload. */
        RunnerEventEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "runner.event";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session?: string;
                native_type: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent compacted its context (summarized the conversation to free room). Reported by the agent (`inferred` false: a tool call it titles "Compacting context" that completes; `context_before` is its last context reading), or `inferred`: the agent did not say so, but the context it reports fell below half of its last reading; `context_before` and `context_after` are those readings, in tokens. */
        AgentCompactedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "agent.compacted";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                turn?: number;
                inferred: boolean;
                context_before?: number;
                context_after?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description What the run has used so far against its limits, after each turn and each tool call. `fraction` is the most used limit's share (absent without limits). */
        BudgetUpdatedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "budget.updated";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                tokens: number;
                cost_usd?: number;
                tool_calls: number;
                elapsed_ms: number;
                limits: {
                    [key: string]: number;
                };
                /** @enum {string} */
                limit?: "time" | "cost" | "tokens" | "tool_calls" | "requests";
                fraction?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The most used limit passed 60% or 80%: `fraction` is the share used, `threshold` the mark passed; `notified` says whether the agent was told. */
        LimitWarningEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "limit.warning";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                /** @enum {string} */
                limit: "time" | "cost" | "tokens" | "tool_calls" | "requests";
                used: number;
                max: number;
                fraction: number;
                threshold: number;
                notified: boolean;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A limit was reached: at 95% the agent is asked to hand back (`handback`); at 100% the session is cancelled (`cancel`), or, between turns, the run stops (`stop`). */
        LimitReachedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "limit.reached";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                /** @enum {string} */
                limit: "time" | "cost" | "tokens" | "tool_calls" | "requests";
                used: number;
                max: number;
                fraction: number;
                /** @enum {string} */
                action: "handback" | "cancel" | "stop";
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A turn failed on the model provider, sorted into a class from the agent's error or last words. `source` says where the words came from; `message` is redacted. */
        ProviderErrorEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "provider.error";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session?: string;
                turn?: number;
                /** @enum {string} */
                class: "rate_limited" | "overloaded" | "unreachable" | "quota" | "unauthorized" | "other";
                status?: number;
                retry_after_ms?: number;
                /** @enum {string} */
                source: "error" | "message" | "stderr";
                message: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The failed turn will be sent again on the same session after `delay_ms` (`attempt` counts from 1 within the class's schedule). */
        RetryScheduledEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "retry.scheduled";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                /** @enum {string} */
                what: "turn";
                /** @enum {string} */
                class: "rate_limited" | "overloaded" | "unreachable" | "quota" | "unauthorized" | "other";
                attempt: number;
                max_attempts: number;
                delay_ms: number;
                retry_after_ms?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The session was switched to the fallback model after an overload outlasted its waits; `model` is what the agent then reports. */
        ModelSwitchedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "model.switched";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                from?: string;
                to: string;
                model?: string;
                reason: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Nothing arrived from the agent for `idle_ms` while no tool call ran: the turn is cancelled and sent again (`resend`) or the run fails (`fail`). */
        StallDetectedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "stall.detected";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                turn: number;
                idle_ms: number;
                /** @enum {string} */
                action: "resend" | "fail";
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent made the same tool call (tool, input and result) `count` times in a row: it is told (`notice`), then asked to hand back (`handback`). */
        RepeatDetectedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "repeat.detected";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                tool: string;
                count: number;
                /** @enum {string} */
                action: "notice" | "handback";
                notified?: boolean;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent is asked to stop and hand back what it has. `reason` is `limit`, `provider` or `repeat`; `limit` or `class` says which. */
        HandbackRequestedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "handback.requested";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                /** @enum {string} */
                reason: "limit" | "provider" | "repeat";
                /** @enum {string} */
                limit?: "time" | "cost" | "tokens" | "tool_calls" | "requests";
                /** @enum {string} */
                class?: "rate_limited" | "overloaded" | "unreachable" | "quota" | "unauthorized" | "other";
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A person's text for the running agent was taken (`baton steer`, the API): redacted and capped, it waits for delivery. */
        InputQueuedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "input.queued";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                id: string;
                by: string;
                text: string;
                chars: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A queued input reached the agent: `mid_turn` as a prompt beside the running turn (agents that take notices), `next_turn` as a turn of its own at the turn's end, `with_prompt` with the next agent stage's prompt. */
        InputDeliveredEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "input.delivered";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                id: string;
                /** @enum {string} */
                how: "mid_turn" | "next_turn" | "with_prompt";
                session?: string;
                turn?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A person's input was not delivered: `code` says why (`not_running`: the run or its agent ended first; `too_long`; `too_many` waiting). */
        InputRejectedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "input.rejected";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                id: string;
                /** @enum {string} */
                code: "not_running" | "too_long" | "too_many";
                message?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The agent asked the user a question through ACP elicitation (a form): `message`, and the `fields` to fill, each with its type, whether it is required and the values it takes. `awaiting: "person"`: it waits for a person's answer (`baton reply`, the API, the web run page, the TUI) for at most `timeout_ms` (absent: no timeout), then is declined; without it the question was answered at once (an unattended run, a form Baton cannot fill). */
        QuestionAskedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "question.asked";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                id: string;
                call?: string;
                mode: string;
                message: string;
                fields: ({
                    name: string;
                    type: string;
                    required: boolean;
                    title?: string;
                    description?: string;
                    options?: ({
                        value: string;
                        title?: string;
                        description?: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                    min?: number;
                    max?: number;
                    min_length?: number;
                    max_length?: number;
                    pattern?: string;
                    format?: string;
                    default?: string | number | boolean | string[];
                } & {
                    [key: string]: unknown;
                })[];
                /** @enum {string} */
                awaiting?: "person";
                timeout_ms?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A question was answered, and the agent told so: `accept` with the person's `content` (checked against the form's fields), `decline` or `cancel`. `by: "human"`: a person answered, `who` names them and `via` how; `by: "policy"`: `rule` says why Baton answered (`question:timeout`, `question:unattended`, `question:unsupported`, `question:turn-cancelled`, `interrupted`). */
        QuestionAnsweredEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "question.answered";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                session: string;
                id: string;
                call?: string;
                /** @enum {string} */
                action: "accept" | "decline" | "cancel";
                content?: {
                    [key: string]: string | number | boolean | string[];
                };
                /** @enum {string} */
                by: "policy" | "human";
                who?: string;
                /** @enum {string} */
                via?: "cli" | "api" | "web" | "terminal";
                rule?: string;
                reason?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description One model call the agent made through Baton's inference proxy ended: its upstream `status` (null when the connection failed: see `error`), time to the answer's headers and in all, the tokens read from the answer (`usage_reported` false when it held none) and their cost from the price table (`cost_source`: `config`, `table` or `unpriced`), and the names of the tools the model asked to call (`tool_calls`). The proxy never retries: every attempt is one event. */
        ModelRequestCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "model.request.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                request_id: string;
                /** @enum {string} */
                provider: "anthropic" | "openai" | "gemini";
                /** @enum {string} */
                api: "anthropic_messages" | "openai_chat" | "openai_responses" | "gemini";
                model: string;
                stream: boolean;
                status: number | null;
                ttfb_ms?: number;
                duration_ms: number;
                input_tokens: number;
                output_tokens: number;
                cache_read_tokens: number;
                cache_write_tokens: number;
                usage_reported: boolean;
                cost_usd: number;
                /** @enum {string} */
                cost_source: "config" | "table" | "unpriced";
                tool_calls?: string[];
                error?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Baton's inference proxy refused a model call before it reached the upstream: the run's request cap, token or cost budget (`limit`) would be passed. The agent got a 403 in its provider's error shape; the session is cancelled. */
        ModelRequestRefusedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "model.request.refused";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                request_id: string;
                /** @enum {string} */
                provider: "anthropic" | "openai" | "gemini";
                /** @enum {string} */
                api: "anthropic_messages" | "openai_chat" | "openai_responses" | "gemini";
                model: string;
                /** @enum {number} */
                status: 403;
                /** @enum {string} */
                limit: "requests" | "tokens" | "cost";
                message: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run's workflow, as Baton read it: where it came from (a name, a file and its sha256), its stages and its edges, so that a view can draw the graph from the log alone. */
        WorkflowLoadedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "workflow.loaded";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                name: string;
                file?: string;
                sha256?: string;
                goal?: string;
                nodes: ({
                    id: string;
                    label?: string;
                    /** @enum {string} */
                    handler: "start" | "exit" | "agent" | "prompt" | "command" | "conditional" | "human" | "parallel" | "fan_in" | "wait" | "foreach" | "validate" | "merge" | "pull_request" | "subtasks";
                } & {
                    [key: string]: unknown;
                })[];
                edges: ({
                    from: string;
                    to: string;
                    label?: string;
                    condition?: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A stage visit started (or a retry of it: `attempt` > 1). Closed by exactly one `stage.completed` or `stage.failed`, on every path, parallel branches included. */
        StageStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "stage.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                label?: string;
                /** @enum {string} */
                handler: "start" | "exit" | "agent" | "prompt" | "command" | "conditional" | "human" | "parallel" | "fan_in" | "wait" | "foreach" | "validate" | "merge" | "pull_request" | "subtasks";
                visit: number;
                attempt: number;
                max_attempts: number;
                agent?: string;
                model?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A stage visit ended with an outcome other than failed; `signals` are what it left for routing. */
        StageCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "stage.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                visit: number;
                /** @enum {string} */
                outcome: "succeeded" | "partially_succeeded" | "skipped";
                duration_ms: number;
                usage?: {
                    input_tokens: number;
                    output_tokens: number;
                    cache_read_tokens?: number;
                    cache_write_tokens?: number;
                } & {
                    [key: string]: unknown;
                };
                signals?: {
                    preferred_label?: string;
                    suggested_next_ids?: string[];
                    context_updates?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
                summary?: string;
                exit_code?: number;
                timed_out?: boolean;
                output_file?: string;
                output_chars?: number;
                preview?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A stage visit ended failed. `will_retry`: a `stage.retrying` and a new attempt follow; otherwise the workflow routes on `outcome=failed` (or the run fails when no edge takes it). */
        StageFailedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "stage.failed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                visit: number;
                error: {
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                };
                /** @enum {string} */
                class: "transient_infra" | "deterministic" | "budget_exhausted" | "cancelled" | "structural";
                will_retry: boolean;
                duration_ms: number;
                usage?: {
                    input_tokens: number;
                    output_tokens: number;
                    cache_read_tokens?: number;
                    cache_write_tokens?: number;
                } & {
                    [key: string]: unknown;
                };
                signals?: {
                    preferred_label?: string;
                    suggested_next_ids?: string[];
                    context_updates?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
                exit_code?: number;
                timed_out?: boolean;
                output_file?: string;
                output_chars?: number;
                preview?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A failed stage is tried again after `delay_ms`, as attempt `attempt` of `max_attempts`. */
        StageRetryingEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "stage.retrying";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                visit: number;
                attempt: number;
                max_attempts: number;
                delay_ms: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The edge taken after a stage, and why: a matching `condition`, the `preferred_label`, a `suggested_next` id, an `unconditional` edge, a `retry_target` after a failure, or `join`: from a fan-out (or `foreach`) whose branches have ended, to their fan-in. */
        RouteSelectedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "route.selected";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                from: string;
                to: string;
                label?: string;
                condition?: string;
                /** @enum {string} */
                reason: "condition" | "preferred_label" | "suggested_next" | "unconditional" | "retry_target" | "gate" | "join";
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run's context (a flat map of JSON values that prompts and commands read) changed: `updates` holds the new values; a key set to null is removed. */
        ContextUpdatedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "context.updated";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                updates: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A stage visit is done and recorded: its commit on the run's branch, the context after it, and the stage that runs next (absent at the exit). `baton resume` continues from the last one; `baton fork` starts a new run from any. */
        CheckpointSavedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "checkpoint.saved";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                visit: number;
                commit?: string;
                context: {
                    [key: string]: unknown;
                };
                next?: string;
                visits: {
                    [key: string]: number;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A fan-out (or `foreach`) started its branches, each in a worktree of its own branched from the run's branch at this stage's checkpoint. */
        ParallelStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "parallel.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                branches: ({
                    branch: string;
                    target: string;
                    item?: unknown;
                } & {
                    [key: string]: unknown;
                })[];
                /** @enum {string} */
                join_policy: "wait_all" | "first_success";
                max_parallel: number;
                base_sha?: string;
                fan_in?: string;
                reused?: string[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description One branch of a fan-out started in its worktree. */
        BranchStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "branch.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                branch: string;
                target: string;
                path?: string;
                git_branch?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description One branch of a fan-out ended: its outcome and the head of its git branch (absent when it committed nothing). */
        BranchCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "branch.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                branch: string;
                outcome: ("succeeded" | "partially_succeeded" | "skipped" | "failed") | "cancelled";
                head_sha?: string;
                error?: {
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Every branch of a fan-out has ended (or, with `first_success`, one succeeded and the rest were cancelled). `results` are in branch order. */
        ParallelCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "parallel.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                /** @enum {string} */
                outcome: "succeeded" | "partially_succeeded" | "skipped" | "failed";
                results: ({
                    branch: string;
                    outcome: string;
                    head_sha?: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A fan-in merged one branch into the run's branch (`git merge --no-ff`), in branch order. */
        IntegrationCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "integration.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                branch: string;
                sha: string;
                git_branch?: string;
                empty?: boolean;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A fan-in could not merge a branch: the merge was aborted, the run's branch is as it was, and `files` are the paths in conflict. */
        IntegrationConflictedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "integration.conflicted";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                branch: string;
                files: string[];
                git_branch?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A human gate waits for a decision: one of `options` (the out-edges' labels), or free text when `freeform`. The run pauses until it is answered. */
        ApprovalRequestedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "approval.requested";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                gate: string;
                question: string;
                options: ({
                    label: string;
                    to: string;
                    key?: string;
                } & {
                    [key: string]: unknown;
                })[];
                freeform: boolean;
                default_choice?: string;
                timeout_ms?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A human gate was answered: the option chosen (`choice`, its label), or `text` for a freeform answer; who answered and how (`cli`, `api`, `web`, `auto` for --auto-approve, `timeout` for a gate's default choice). */
        ApprovalResolvedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "approval.resolved";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                gate: string;
                choice?: string;
                text?: string;
                approved: boolean;
                comment?: string;
                by: string;
                /** @enum {string} */
                via: "cli" | "api" | "web" | "terminal" | "auto" | "timeout";
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A wait stage holds the run until `until` (an RFC 3339 time), across restarts. */
        WaitStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "wait.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                stage: string;
                until: string;
                duration_ms: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The workspace's setup commands (`[setup]`) start, in a fresh workspace before its first agent stage: the run's worktree, or a fan-out branch's (`branch`). */
        SetupStartedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "setup.started";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                path: string;
                commands: string[];
                branch?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description One setup command ended: its exit code (null when a signal or its timeout ended it) and its whole output in the trace store. */
        SetupCommandCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "setup.command.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                command: string;
                name?: string;
                exit_code: number | null;
                duration_ms: number;
                timed_out?: boolean;
                output_file?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Every setup command of the workspace succeeded. */
        SetupCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "setup.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                commands: number;
                duration_ms: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A setup command failed (or timed out): no agent starts in that workspace, and the run (or the branch) fails naming the command and the tail of its output. */
        SetupFailedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "setup.failed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                command: string;
                exit_code: number | null;
                error: {
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                };
                output_tail: string;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A validation command (`[validation] commands`, `--validate`) ran in the run's workspace after the agent's work: whether it passed, and its whole output in the trace store. */
        ValidationCompletedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "validation.completed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                command: string;
                passed: boolean;
                exit_code: number | null;
                duration_ms: number;
                round: number;
                timed_out?: boolean;
                output_file?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Validation failed and the agent is sent a fix prompt naming the failing commands and the tail of their output (a turn of its own follows). */
        ValidationFixRequestedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "validation.fix_requested";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                round: number;
                max_rounds: number;
                commands: string[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Baton merged the run's branch into its base branch (`--merge`, `[delivery] mode = "merge"`, a `merge` stage, `baton merge`). The user's working tree, when it has the base checked out, shows the merged state. */
        GitMergedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "git.merged";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                sha: string;
                branch: string;
                base: string;
                /** @enum {string} */
                strategy: "merge" | "squash" | "ff-only";
                run?: string;
                number?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The run's branch does not merge into its base without conflicts (or cannot be fast-forwarded): nothing was changed, and the files in conflict are named. */
        MergeConflictedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "merge.conflicted";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                branch: string;
                base: string;
                /** @enum {string} */
                strategy: "merge" | "squash" | "ff-only";
                files: string[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Baton pushed the run's branch to a remote (`[delivery] remote`, default `origin`) for a pull request: the agent never pushes. */
        GitPushedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "git.pushed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                remote: string;
                branch: string;
                base?: string;
                sha: string;
                run?: string;
                run_number?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description Baton opened a pull request for the run's branch on GitHub through its REST API (`--pr`, `[delivery] mode = "pull_request"`, a `pull_request` stage, `baton pr`). */
        PullRequestCreatedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "pull_request.created";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                url: string;
                number: number;
                head_sha: string;
                draft: boolean;
                repo: string;
                branch: string;
                base: string;
                remote: string;
                run?: string;
                run_number?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A pull request could not be opened: no token, the push was refused, or GitHub's API answered an error (403, 422, a rate limit). The run's work stays on its branch; the error says what to do. */
        PullRequestFailedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "pull_request.failed";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                error: {
                    code: string;
                    message: string;
                } & {
                    [key: string]: unknown;
                };
                branch: string;
                base: string;
                remote: string;
                run?: string;
                run_number?: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A file matching `[artifacts] include` was captured into the run's folder by content (`artifacts/<sha256>`) at the end of a stage or of the run. */
        ArtifactCapturedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "artifact.captured";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                path: string;
                bytes: number;
                sha256: string;
                media_type: string;
                stage?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A stage wrote the artefact it is for (`artefact="kind:path"`): the `pipeline`'s spec, plan and subtask list. The file is in the run's workspace and committed at the stage's checkpoint. */
        ArtefactWrittenEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "artefact.written";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                kind: string;
                path: string;
                bytes: number;
                sha256: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A subtask of the plan changed status: `planned` when the list is read, `building` when its branch starts, then `built`, `failed` or `cancelled` when the branch ends. */
        SubtaskUpdatedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subtask.updated";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                id: string;
                title?: string;
                /** @enum {string} */
                status: "planned" | "building" | "built" | "failed" | "cancelled";
                branch?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A built subtask's branch was merged into the task branch (`commit`), or conflicted (`commit` null, `conflicts` the files; nothing merged). A conflicting subtask is built again on the integrated branch once (`rerun`). */
        SubtaskIntegratedEvent: {
            v: number;
            run: string;
            seq?: number;
            at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subtask.integrated";
            stage?: {
                id: string;
                visit: number;
                branch?: string;
            } & {
                [key: string]: unknown;
            };
            data: {
                id: string;
                title?: string;
                branch?: string;
                commit: string | null;
                conflicts: string[];
                rerun?: boolean;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A captured file: the last capture of its path. */
        Artifact: {
            path: string;
            bytes: number;
            sha256: string;
            media_type: string;
            stage?: string;
            /** @description where its bytes are served */
            url: string;
        };
        RunDiff: {
            /**
             * @description commit: the run's commit against its base; workspace: its working changes (no commit yet)
             * @enum {string}
             */
            source: "commit" | "workspace";
            base_sha?: string;
            commit?: string;
            branch?: string;
            added: number;
            removed: number;
            files: components["schemas"]["DiffFile"][];
        };
        DiffFile: {
            path: string;
            /** @description the path before a rename */
            old_path?: string;
            /** @enum {string} */
            change: "added" | "deleted" | "modified" | "renamed";
            binary: boolean;
            /** @description added lines */
            added: number;
            /** @description removed lines */
            removed: number;
            /** @description the file's hunks from its first @@ (empty for a binary file), cut at 200,000 characters (2,000,000 for all files) */
            patch: string;
            /** @description patch was cut; the counts are whole */
            truncated: boolean;
        };
        /** @description What the run list shows of a run besides its catalog row: folded from its events. */
        RunOverview: {
            id: string;
            number: number;
            status: string;
            duration_ms?: number;
            cost_usd?: number;
            input_tokens: number;
            output_tokens: number;
            /** @description the stage running now, or the gate a paused run waits at */
            stage?: string;
            branch?: string;
            /**
             * @description the run waits for a person: a gate, a permission question an `ask` rule put, or a question the agent asked
             * @enum {string}
             */
            waiting?: "gate" | "permission" | "question";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listRuns: {
        parameters: {
            query?: {
                /** @description only runs of this status */
                status?: "created" | "running" | "paused" | "succeeded" | "stopped" | "failed" | "cancelled";
                /** @description an integer from 1 to 10000 (default 100) */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runs: components["schemas"]["RunSummary"][];
                        /** @description The highest feed position committed before the list was read: follow /api/stream?after=feed_pos to keep the list current without replaying the feed */
                        feed_pos: number;
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The fake agent's script: the steps themselves, or a file inside the project. A path that leads outside the project, by .. or a symbolic link, is refused (400); errors about a file say where it goes wrong (line, column), never what it holds. The steps are checked by `baton run` (422). */
                    script?: unknown[] | {
                        [key: string]: unknown;
                    } | string;
                    /** @description walk this workflow of .baton/workflows/ (or the built-in single); a name, never a path (one ending in .dot or .fabro is refused) */
                    workflow?: string;
                    /** @description with workflow: every gate takes its first option */
                    auto_approve?: boolean;
                    /** @description what to do; required unless a workflow with a goal is given */
                    task?: string;
                    /** @description the agent's name (fake, claude, codex, …) */
                    agent: string;
                    model?: string;
                    /** @description the run's timeout, like 30m; without one the project's [limits] timeout or BATON_TIMEOUT must give one (a run started here is unattended) */
                    timeout?: string;
                    /**
                     * @description what the run must leave (default: the project's [run] require_output)
                     * @enum {string}
                     */
                    require_output?: "change" | "none";
                };
            };
        };
        responses: {
            /** @description started; Location names the run */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: {
                            id: string;
                            number: number;
                        };
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the CLI refused the run (run_rejected, its one-line error) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run did not start in time (start_timeout) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description only events with a greater seq */
                after?: string;
                /** @description an integer from 1 to 10000 (default 1000) for a page; any positive count for NDJSON */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description events with seq > after; next_after is the seq to pass next */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["Event"][];
                        next_after: number;
                    };
                    "application/x-ndjson": string;
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    followRun: {
        parameters: {
            query?: {
                /** @description only events after this seq */
                after?: string;
            };
            header?: {
                /** @description resume after this id (wins over ?after): what an EventSource sends when it reconnects */
                "last-event-id"?: string;
            };
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description the run has ended and the client has its final event */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOutput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
                /** @description a tool call's id, as tool.completed or permission.requested names it */
                call: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the output */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or the run has no output for the call (run_not_found, output_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listArtifacts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the list, by path */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        artifacts: components["schemas"]["Artifact"][];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
                /** @description the sha256 of an artifact.captured event */
                digest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file: PNG, JPEG, GIF and WebP inline as themselves, text as text/plain, anything else as application/octet-stream (Content-Disposition attachment) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/gif": string;
                    "image/webp": string;
                    "text/plain": string;
                    "application/octet-stream": string;
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or it captured no such file (run_not_found, artifact_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunDiff: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["RunSummary"];
                        diff: components["schemas"]["RunDiff"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no workspace to diff (no_workspace) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description the run had no live process: it is now failed (interrupted) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description asked; follow the stream for run.cancelled */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run has already ended (run_ended) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveGate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description where it was done, as recorded (default: api)
                     * @enum {string}
                     */
                    via?: "api" | "web";
                    /** @description recorded with the decision */
                    comment?: string;
                    /** @description who decided (default: the user the server runs as) */
                    by?: string;
                };
            };
        };
        responses: {
            /** @description recorded: the run is resuming */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run is not paused at a gate (not_paused) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the answer fits no option of the gate (invalid_answer), or the CLI refused the resume (resume_rejected, its one-line error) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resume did not start in time (start_timeout) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectGate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description where it was done, as recorded (default: api)
                     * @enum {string}
                     */
                    via?: "api" | "web";
                    /** @description recorded with the decision */
                    comment?: string;
                    /** @description who decided (default: the user the server runs as) */
                    by?: string;
                };
            };
        };
        responses: {
            /** @description recorded: the run is resuming */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run is not paused at a gate (not_paused) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the answer fits no option of the gate (invalid_answer), or the CLI refused the resume (resume_rejected, its one-line error) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resume did not start in time (start_timeout) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerGate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description where it was done, as recorded (default: api)
                     * @enum {string}
                     */
                    via?: "api" | "web";
                    /** @description an option's label or key, or free text at a freeform gate */
                    answer: string;
                    /** @description recorded with the decision */
                    comment?: string;
                    /** @description who decided (default: the user the server runs as) */
                    by?: string;
                };
            };
        };
        responses: {
            /** @description recorded: the run is resuming */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run is not paused at a gate (not_paused) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the answer fits no option of the gate (invalid_answer), or the CLI refused the resume (resume_rejected, its one-line error) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resume did not start in time (start_timeout) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendInput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text: string;
                    /** @description who, as recorded (default: api) */
                    by?: string;
                };
            };
        };
        responses: {
            /** @description left for the run; follow its stream for input.queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        input: {
                            id: string;
                            by: string;
                        };
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no such thing of the run (run_not_found, output_not_found, …) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run is not running (not_running, run_ended) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    allowPermission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
                /** @description a tool call's id, as tool.completed or permission.requested names it */
                call: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description where it was done, as recorded (default: api)
                     * @enum {string}
                     */
                    via?: "api" | "web";
                    /** @description who, as recorded (default: api) */
                    by?: string;
                    /** @description one of the options the agent offered, of the answer's kind */
                    option_id?: string;
                    /** @description also allow later calls of the same kind and target in this run */
                    always_for_run?: boolean;
                };
            };
        };
        responses: {
            /** @description answer left for the run */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        answer: {
                            call: string;
                            /** @enum {string} */
                            action: "allow" | "deny";
                            by: string;
                        };
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no question waits on the call (run_not_found, unknown_call) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run is not running, or the call was answered already (not_running, run_ended, answer_conflict) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    denyPermission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
                /** @description a tool call's id, as tool.completed or permission.requested names it */
                call: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description where it was done, as recorded (default: api)
                     * @enum {string}
                     */
                    via?: "api" | "web";
                    /** @description who, as recorded (default: api) */
                    by?: string;
                    /** @description one of the options the agent offered, of the answer's kind */
                    option_id?: string;
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description answer left for the run */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        answer: {
                            call: string;
                            /** @enum {string} */
                            action: "allow" | "deny";
                            by: string;
                        };
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no question waits on the call (run_not_found, unknown_call) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run is not running, or the call was answered already (not_running, run_ended, answer_conflict) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replyToQuestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a run number (12), a run id (run_…), or a unique id prefix */
                ref: string;
                /** @description the question's id, as question.asked names it */
                question: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description what the person does (default: accept)
                     * @enum {string}
                     */
                    action?: "accept" | "decline" | "cancel";
                    /** @description field name to value (text, number, boolean, or a list of option values): accept only */
                    content?: {
                        [key: string]: string | number | boolean | string[];
                    };
                    reason?: string;
                    /** @description who, as recorded (default: api) */
                    by?: string;
                    /**
                     * @description where it was done, as recorded (default: api)
                     * @enum {string}
                     */
                    via?: "api" | "web";
                };
            };
        };
        responses: {
            /** @description reply left for the run */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        reply: {
                            question: string;
                            /** @enum {string} */
                            action: "accept" | "decline" | "cancel";
                            by: string;
                        };
                        run: components["schemas"]["RunSummary"];
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run, or no question of that id waits (run_not_found, unknown_question) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the run is not running, or the question was answered already (not_running, run_ended, answer_conflict) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is larger than 256 KiB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not application/json (unsupported_media_type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the content does not fill the form (invalid_answer, naming the field) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOverview: {
        parameters: {
            query?: {
                /** @description only runs of this status */
                status?: "created" | "running" | "paused" | "succeeded" | "stopped" | "failed" | "cancelled";
                /** @description an integer from 1 to 200 (default 50) */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description newest first, and the feed position they were read at */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runs: components["schemas"]["RunOverview"][];
                        /** @description The highest feed position committed before the list was read: follow /api/stream?after=feed_pos to keep the list current without replaying the feed */
                        feed_pos: number;
                    };
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    followFeed: {
        parameters: {
            query?: {
                /** @description only events after this feed position */
                after?: string;
            };
            header?: {
                /** @description resume after this id (wins over ?after): what an EventSource sends when it reconnects */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description the token is missing or not this server's (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the Host header names a host the server does not answer to (forbidden_host) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the path takes other methods (method_not_allowed); the Allow header lists them */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server failed to handle the request (internal); its log says why */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
