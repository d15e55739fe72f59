// Written by console/generate.ts from the API document (GET /openapi.json) with
// openapi-typescript: change the API, not this file.

export interface paths {
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Whether the database and the job engine answer
     * @description One field per component (`database`, `job_queue`): `ok` or `unavailable`. The 503 body carries the same fields beside `detail`.
     */
    get: operations['HealthController_health'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/users/me/username': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Set the caller's username (once) */
    patch: operations['UsernameController_setUsername'];
    trace?: never;
  };
  '/api/v1/users/username/available': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Whether a username can be claimed */
    get: operations['UsernameController_checkAvailability'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/users/me/preferences': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's time zone, quiet hours and digest schedule */
    get: operations['PreferencesController_get'];
    /** Change the caller's preferences */
    put: operations['PreferencesController_put'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sync-user': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create or update the caller's user from an identity-provider JWT
     * @description Takes only a JWT: an API key gets 401.
     */
    post: operations['AuthController_syncUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The calling user */
    get: operations['AuthController_me'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/me/roles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The calling user's roles */
    get: operations['AuthController_roles'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the caller's active API keys */
    get: operations['AuthController_listApiKeys'];
    put?: never;
    /**
     * Create an API key (the full key is shown only here)
     * @description At most 50 active keys per user: the 51st answers 409.
     */
    post: operations['AuthController_createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Revoke an API key */
    delete: operations['AuthController_revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}/execute': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run a task now
     * @description Answers the new `pending` execution; the run itself is asynchronous.
     */
    post: operations['ExecutionsController_execute'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}/executions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List a task's executions, newest first */
    get: operations['ExecutionsController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the caller's tasks, newest first
     * @description A bare array: every task without `limit`, a page with `limit` and `offset`.
     */
    get: operations['TasksController_list'];
    put?: never;
    /** Create a task */
    post: operations['TasksController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/suggest': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Suggest a task configuration from a prompt */
    post: operations['TasksController_suggest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Run a query and its condition once, without creating a task */
    post: operations['TasksController_preview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a task (anyone, for a public task)
     * @description Non-owners of a public task get it without owner data; a private task is 404.
     */
    get: operations['TasksController_get'];
    /** Update a task */
    put: operations['TasksController_update'];
    post?: never;
    /** Delete a task */
    delete: operations['TasksController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}/pages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The last good fetch of each of a task's pages (owner only)
     * @description In the task's page order; a page never fetched has `status` null and null fields. An empty list for a task without pages.
     */
    get: operations['TasksController_pages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}/pages/{index}/screenshot': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The last screenshot of a task's browser page (owner only)
     * @description `index` counts from 0 in the task's page order. The viewport of the page's last good browser read; 404 `Screenshot not found` when it has none.
     */
    get: operations['TasksController_screenshot'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}/acknowledge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Acknowledge the task's standing alert, which stops its reminders */
    post: operations['TasksController_acknowledge'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}/notifications/{type}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Resume a notification config that paused itself */
    post: operations['TasksController_resume'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{id}/visibility': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Make a task public or private */
    patch: operations['TaskSharingController_setVisibility'];
    trace?: never;
  };
  '/api/v1/tasks/{id}/fork': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Fork a public task (or one of your own) */
    post: operations['TaskSharingController_fork'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/public/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List public tasks */
    get: operations['PublicTasksController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/public/tasks/id/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a public task (counts a view) */
    get: operations['PublicTasksController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/tasks/{id}/rss': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** RSS 2.0 feed of a public task's met-condition executions */
    get: operations['TaskFeedController_rss'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/public/waitlist': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Join the waitlist */
    post: operations['WaitlistController_join'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Platform statistics */
    get: operations['AdminController_getStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/queries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every task's query with its owner, newest first */
    get: operations['AdminController_listQueries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/executions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** All executions, newest first */
    get: operations['AdminController_listExecutions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/scheduler/jobs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Check jobs waiting or running in the queue */
    get: operations['AdminController_listSchedulerJobs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/errors': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Failed executions, newest first */
    get: operations['AdminController_listErrors'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Users, newest first */
    get: operations['AdminController_listUsers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Provider usage per user in a month, highest cost first */
    get: operations['AdminController_listUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/users/{id}/deactivate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Deactivate a user and pause all the user's tasks */
    patch: operations['AdminController_deactivateUser'];
    trace?: never;
  };
  '/admin/users/{id}/reactivate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Reactivate a deactivated user; the user's tasks stay paused */
    patch: operations['AdminController_reactivateUser'];
    trace?: never;
  };
  '/api/v1/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's provider usage and cost in a month */
    get: operations['UsageController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notifications/sends': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List send attempts across the caller's tasks, newest first */
    get: operations['NotificationsController_listSends'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{task_id}/notifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List a task's executions that met their condition, newest first */
    get: operations['NotificationsController_listForTask'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tasks/{task_id}/notifications/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a test event through the task's notification configs now, one attempt each */
    post: operations['NotificationsController_sendTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/email-verifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's email addresses and their verification state */
    get: operations['EmailVerificationController_list'];
    put?: never;
    /** Mail a 6-digit code to an address the caller wants to notify (5 requests an hour) */
    post: operations['EmailVerificationController_request'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/email-verifications/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Confirm an address with the code mailed to it */
    post: operations['EmailVerificationController_confirm'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/email-verifications/{email}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a verified or pending address */
    delete: operations['EmailVerificationController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    ErrorResponse: {
      /**
       * @description What went wrong, in words
       * @example Task not found
       */
      detail: string;
    };
    RateLimitErrorResponse: {
      /**
       * @description What went wrong, in words
       * @example Task not found
       */
      detail: string;
      /** @description Seconds until the window that refused the request opens again */
      retry_after: number;
    };
    SetUsernameDto: {
      /** @example ada_lovelace */
      username: string;
    };
    UsernameClaimed: {
      username: string;
      /** @enum {boolean} */
      updated: true;
    };
    ValidationIssue: {
      /** @example missing */
      type: string;
      /**
       * @description Where the input was: `body`, `query` or `path`, then the field
       * @example [
       *       "body",
       *       "search_query"
       *     ]
       */
      loc: (string | number)[];
      /** @example Field required */
      msg: string;
      /** @description The rejected value, as sent: any JSON value */
      input:
        | string
        | number
        | boolean
        | ({
            [key: string]: unknown;
          } | null)
        | unknown[];
      ctx?: {
        [key: string]: unknown;
      };
    };
    ValidationErrorResponse: {
      detail: components['schemas']['ValidationIssue'][];
    };
    UsernameAvailability: {
      available: boolean;
    };
    QuietHoursDto: {
      /**
       * @description HH:MM, in the time zone
       * @example 22:00
       */
      start: string;
      /**
       * @description HH:MM, exclusive; may be before start (crosses midnight)
       * @example 22:00
       */
      end: string;
    };
    DigestScheduleDto: {
      /**
       * @default daily
       * @enum {string}
       */
      frequency: 'daily' | 'weekly';
      /**
       * @description HH:MM, in the time zone
       * @default 08:00
       * @example 22:00
       */
      at: string;
      /**
       * @description 1 = Monday
       * @default 1
       */
      weekday: number;
    };
    PreferencesResponse: {
      /**
       * @description An IANA time zone
       * @default UTC
       * @example Europe/Paris
       */
      time_zone: string;
      quiet_hours: components['schemas']['QuietHoursDto'] | null;
      digest: components['schemas']['DigestScheduleDto'];
    };
    SyncedUserResponse: {
      /** Format: uuid */
      id: string;
      email: string | null;
      /** @enum {string} */
      state: 'active' | 'deactivated';
      /** Format: date-time */
      created_at: string;
      /** @description The identity provider's user id */
      clerk_user_id: string | null;
    };
    UserResponse: {
      /** Format: uuid */
      id: string;
      email: string | null;
      /** @enum {string} */
      state: 'active' | 'deactivated';
      /** Format: date-time */
      created_at: string;
    };
    CallerRolesResponse: {
      /** @description Whether the caller has the admin role (the console shows its Admin page) */
      is_admin: boolean;
    };
    CreateApiKeyDto: {
      /** @example CI pipeline */
      name: string;
    };
    CreatedApiKeyResponse: {
      /** Format: uuid */
      id: string;
      /** @description Redacted key: `sk_...` and its last five characters */
      key_prefix: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      last_used_at: string | null;
      /** @enum {string} */
      state: 'active' | 'revoked';
      /** @description The full key (`sk_` and 32 characters); shown only here */
      key: string;
    };
    ApiKeyResponse: {
      /** Format: uuid */
      id: string;
      /** @description Redacted key: `sk_...` and its last five characters */
      key_prefix: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      last_used_at: string | null;
      /** @enum {string} */
      state: 'active' | 'revoked';
    };
    ApiKeyRevokedResponse: {
      /** @example API key revoked */
      message: string;
      /** Format: uuid */
      id: string;
    };
    ExecuteTaskBodyDto: {
      force?: boolean;
    };
    GroundingSourceResponse: {
      uri: string;
      title: string;
    };
    EvidenceReportResponse: {
      /** @description Distinct domains among the sources */
      distinct_domains: number;
      /** @description Distinct domains that match a trusted domain */
      trusted_matches: number;
      /** @description Whether the sources meet the evidence rule (defaults without one) */
      satisfied: boolean;
    };
    ValueChangeResponse: {
      field: string;
      before: (string | null) | number | boolean;
      after: (string | null) | number | boolean;
    };
    ProviderUsageResponse: {
      /** @example gemini */
      provider: string;
      model: string;
      input_tokens: number;
      output_tokens: number;
      search_calls: number;
      /** @description USD; null when no price is known */
      cost_usd: number | null;
    };
    PageItemResponse: {
      /** @description Its text (HTML) or its title (feeds), at most 300 characters */
      title: string;
      /** @description Its link, resolved; null without */
      url: string | null;
    };
    PageResultResponse: {
      url: string;
      /**
       * @description How the page was loaded
       * @enum {string}
       */
      render: 'http' | 'browser';
      /** @description The URL read, after redirects; null for non-owners of a page with headers */
      final_url: string | null;
      /** @enum {string} */
      status: 'new' | 'same' | 'changed' | 'error';
      http_status: number | null;
      /** @description Null for non-owners of a page with headers */
      title: string | null;
      /** @description Why the page could not be read (status error); owner only: null for others */
      error: string | null;
      /** @description Lines that appeared since the last good fetch; null for non-owners of a page with headers */
      added: string[] | null;
      /** @description Lines that went away since the last good fetch; null for non-owners of a page with headers */
      removed: string[] | null;
      /** @description Of a page with items: the first 50 new items in the page’s order ([] when none); null for other pages and for non-owners of a page with headers */
      new_items: components['schemas']['PageItemResponse'][] | null;
      /** @description The page's declared values by name, each read or null; null when it declares none, and for non-owners of a page with headers */
      values: {
        [key: string]: string | number | boolean;
      } | null;
      /** @description Why each null value is null; null when the page declares no values */
      value_errors: {
        [key: string]: 'not found' | 'not a number' | 'not a value' | 'page error';
      } | null;
      /** Format: date-time */
      fetched_at: string;
    };
    ExecutionResponse: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      task_id: string;
      /** @enum {string} */
      status: 'pending' | 'running' | 'retrying' | 'success' | 'failed' | 'cancelled';
      /** Format: date-time */
      started_at: string;
      /** Format: date-time */
      completed_at: string | null;
      /** @description Null until the run ends; non-owners never see `error` */
      result: {
        [key: string]: unknown;
      } | null;
      /** @description Owner only: null for others */
      error_message: string | null;
      /** @description Owner only: null for others */
      notification: {
        [key: string]: unknown;
      } | null;
      grounding_sources: components['schemas']['GroundingSourceResponse'][] | null;
      /** @description claimed_met, and the evidence rule satisfied when the task has one */
      condition_met: boolean | null;
      /** @description The model's own verdict */
      claimed_met: boolean | null;
      evidence: components['schemas']['EvidenceReportResponse'] | null;
      /** @description The values of the task's output_schema, or each value its pages declare (read, or null); null without either */
      values: {
        [key: string]: (string | null) | number | boolean;
      } | null;
      /** @description Against the previous successful execution with values; null without a schema or page values */
      changes: components['schemas']['ValueChangeResponse'][] | null;
      answer: string | null;
      reasoning: string | null;
      /** @description Null before the run called a provider; owner only */
      usage: components['schemas']['ProviderUsageResponse'] | null;
      /** @description What the check read of each page, in the task's page order; null without pages */
      page_results: components['schemas']['PageResultResponse'][] | null;
      /**
       * Format: uuid
       * @description The execution whose model call or page rule made this verdict
       */
      verdict_execution_id: string | null;
      /** Format: date-time */
      created_at: string;
    };
    AlertPolicyDto: {
      /** @description Folds alerts inside the window into one. A whole number and a unit: 30s, 15m, 2h, 1d; at least ALERT_MIN_COOLDOWN, at most 30d */
      cooldown: string | null;
      /** @description Reminds of a standing alert until it is acknowledged (always tasks only). A whole number and a unit: 30s, 15m, 2h, 1d; at least ALERT_MIN_REPEAT, at most 30d */
      repeat_every: string | null;
      /** @default 10 */
      repeat_max: number;
    };
    OutputSchemaDto: {
      /** @enum {string} */
      type: 'object';
      /** @description Names match ^[a-z][a-z0-9_]{0,39}$; no nesting, no $ref; 8 kB at most in all */
      properties: {
        [key: string]: components['schemas']['OutputPropertyDto'];
      };
      /** @description Names of properties */
      required?: string[];
    };
    OutputPropertyDto: {
      /** @enum {string} */
      type: 'string' | 'number' | 'integer' | 'boolean';
      description?: string;
      /** @description Values of the property type */
      enum?: (string | number | boolean)[];
    };
    EvidenceRuleDto: {
      /** @default 1 */
      min_domains: number;
      /**
       * @description Host names; a source matches one when its domain equals it or is a subdomain
       * @default []
       */
      trusted_domains: string[];
      /** @default 1 */
      confirmations: number;
    };
    PageItemsDto: {
      /** @description On an HTML page, the CSS selector of its items (required there: without it the page is the error `not a feed`); feeds (RSS, Atom, JSON Feed) need none */
      selector?: string;
    };
    PageValueDto: {
      /** @description Unique across the task's pages */
      name: string;
      /**
       * @description number: the first number in the first match of selector (on text/plain pages, of the whole text); text: the text of the first match of selector; price: the product price from JSON-LD, microdata or price meta tags (with selector, the first number in its first match); availability: in_stock, out_of_stock, preorder or backorder from JSON-LD or microdata; json: the first node of path on a JSON page
       * @enum {string}
       */
      from: 'number' | 'text' | 'price' | 'availability' | 'json';
      /** @description Required with text; optional with number and price; refused otherwise */
      selector?: string;
      /** @description An RFC 9535 JSONPath, such as $.data.version: required with json only */
      path?: string;
    };
    PageTargetDto: {
      /** @description An http or https URL without user info */
      url: string;
      /** @description A CSS selector: the text read is that of every matching element. Type, class, id and attribute selectors, the combinators, :first-child, :last-child, :nth-child(an+b) and :not() of one of those, at most 10 in a list */
      selector?: string;
      /** @description Request headers for a page behind a cookie or a token: secrets, shown to the owner only */
      headers?: {
        [key: string]: string;
      };
      /** @description Read the page as a list of items (an HTML list by items.selector, or a feed): it is changed when it shows items never seen before, listed in page_results[].new_items. Not with selector */
      items?: components['schemas']['PageItemsDto'];
      /** @description Values read from the page at every check: at most 10 across the task's pages, refused with output_schema. They fill the execution's values and changes */
      values?: components['schemas']['PageValueDto'][];
      /**
       * @description How the page is loaded: http (the default) or browser, a headless Chromium that runs its scripts
       * @enum {string}
       */
      render?: 'http' | 'browser';
      /** @description With render browser: a CSS selector (the subset of selector) the page is read once it matches */
      wait_for?: string;
    };
    PageRuleDto: {
      /** @enum {string} */
      type: 'changed' | 'new_items' | 'contains' | 'not_contains' | 'below' | 'above' | 'equals';
      /** @description For contains and not_contains (compared case-insensitively); none for changed and new_items (which needs a page with items) */
      text?: string;
      /** @description For below, above and equals: the name of one of the pages' values */
      value?: string;
      /** @description For below and above: met when the value is a number strictly below or above it */
      than?: number;
      /** @description For equals: met when the value equals it (strings trimmed, compared case-insensitively) */
      to?: string | number | boolean;
    };
    CreateTaskDto: {
      /**
       * @description With pages, the default is the first page's host and path, cut to 100 characters
       * @default New Monitor
       */
      name: string;
      /** @description Required without pages. With pages it may be left out: it is then `Watch <first page URL>`, cut to 500 characters */
      search_query?: string;
      /** @description Defaults to search_query */
      condition_description?: string;
      /**
       * @default active
       * @enum {string}
       */
      state: 'active' | 'paused';
      /**
       * @description `on_change` requires an output_schema
       * @default once
       * @enum {string}
       */
      notify_behavior: 'once' | 'always' | 'on_change';
      /** @description Values each check extracts */
      output_schema?: components['schemas']['OutputSchemaDto'] | null;
      /** @description What a met verdict needs from its sources */
      evidence?: components['schemas']['EvidenceRuleDto'] | null;
      /** @description Cooldown and reminders */
      alert_policy?: components['schemas']['AlertPolicyDto'] | null;
      /** @description Pages to watch instead of searching the web */
      pages?: components['schemas']['PageTargetDto'][] | null;
      /** @description Decides each check from the pages without a model; needs pages, refused with output_schema, and with on_change unless the pages read values */
      page_rule?: components['schemas']['PageRuleDto'] | null;
      /**
       * @description Queue a run in the create itself, as execute does (also for a paused task); its result schedules the next check. Without it an active task is still checked at once: its first scheduled check is due on creation.
       * @default false
       */
      run_immediately: boolean;
      /** @description At most one config per type */
      notifications?: (
        | components['schemas']['EmailNotificationConfig']
        | components['schemas']['WebhookNotificationConfig']
        | components['schemas']['SlackNotificationConfig']
        | components['schemas']['DiscordNotificationConfig']
        | components['schemas']['NtfyNotificationConfig']
        | components['schemas']['TelegramNotificationConfig']
      )[];
    };
    StandingAlertResponse: {
      /**
       * Format: uuid
       * @description The execution of the last condition_met notification
       */
      execution_id: string;
      /** Format: date-time */
      notified_at: string;
      /** Format: date-time */
      acknowledged_at: string | null;
      repeats_sent: number;
    };
    CreatedTaskResponse: {
      /** Format: uuid */
      id: string;
      /**
       * Format: uuid
       * @description Owner only
       */
      user_id?: string;
      name: string;
      search_query: string;
      condition_description: string;
      /** @enum {string} */
      state: 'active' | 'paused' | 'completed';
      /** @enum {string} */
      notify_behavior: 'once' | 'always' | 'on_change';
      /** @description Null when the task extracts no values */
      output_schema: components['schemas']['OutputSchemaDto'] | null;
      /** @description Null: a met verdict counts as the model claims it */
      evidence: components['schemas']['EvidenceRuleDto'] | null;
      /** @description Null for a search task; headers are the owner's only: others see url, selector and items */
      pages: components['schemas']['PageTargetDto'][] | null;
      /** @description Null: a model reads the pages */
      page_rule: components['schemas']['PageRuleDto'] | null;
      /** @description Null: no cooldown and no reminders */
      alert_policy: components['schemas']['AlertPolicyDto'] | null;
      /** @description The standing alert; owner only: null for others */
      alert: components['schemas']['StandingAlertResponse'] | null;
      /**
       * Format: date-time
       * @description Set by the agent; null when completed
       */
      next_run: string | null;
      is_public: boolean;
      view_count: number;
      subscriber_count: number;
      /** Format: uuid */
      forked_from_task_id: string | null;
      /** @description State the agent keeps between checks */
      last_known_state: {
        [key: string]: unknown;
      } | null;
      /** Format: uuid */
      last_execution_id: string | null;
      last_execution: components['schemas']['ExecutionResponse'] | null;
      /** @description Owner only (secrets included): empty for others */
      notifications: (
        | components['schemas']['EmailNotificationConfig']
        | components['schemas']['WebhookNotificationConfig']
        | components['schemas']['SlackNotificationConfig']
        | components['schemas']['DiscordNotificationConfig']
        | components['schemas']['NtfyNotificationConfig']
        | components['schemas']['TelegramNotificationConfig']
      )[];
      /** @description Owner only: null for others */
      notification_email: string | null;
      /** @description Owner only: null for others */
      webhook_url: string | null;
      /** Format: date-time */
      state_changed_at: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string | null;
      /** @description The error `run_immediately` met; null when none (or not asked) */
      immediate_execution_error: string | null;
    };
    SuggestCurrentTaskDto: {
      name?: string;
      search_query?: string;
      condition_description?: string;
      /** @description cron expression, 5 fields */
      schedule?: string;
      /** @enum {string} */
      notify_behavior?: 'once' | 'always';
    };
    SuggestTaskDto: {
      prompt: string;
      current_task?: components['schemas']['SuggestCurrentTaskDto'];
    };
    SuggestedPageResponse: {
      url: string;
    };
    SuggestResponse: {
      name: string;
      search_query: string;
      condition_description: string;
      /**
       * @description A 5-field cron expression
       * @example 0 9 * * *
       */
      schedule: string;
      /** @enum {string} */
      notify_behavior: 'once' | 'always';
      /** @description The first 10 distinct http or https URLs of the prompt, in its order; absent when it holds none */
      pages?: components['schemas']['SuggestedPageResponse'][];
    };
    PreviewTaskDto: {
      /** @description Required without pages. With pages it may be left out: it is then `Watch <first page URL>`, cut to 500 characters */
      search_query?: string;
      /** @description Defaults to search_query */
      condition_description?: string;
      /** @description Values to extract, as on create; the answer carries them in `values` */
      output_schema?: components['schemas']['OutputSchemaDto'] | null;
      /** @description Pages to read instead of searching the web, validated as on create */
      pages?: components['schemas']['PageTargetDto'][] | null;
    };
    PreviewResponse: {
      condition_met: boolean;
      answer: string;
      reasoning: string;
      /** @description The values of the output_schema sent, or those the pages read; null without either */
      values: {
        [key: string]: (string | null) | number | boolean;
      } | null;
      grounding_sources: components['schemas']['GroundingSourceResponse'][];
      /** @description With `pages` only: each page as read now (every page `new` or `error`), as in an execution */
      page_results?: components['schemas']['PageResultResponse'][];
    };
    TaskResponse: {
      /** Format: uuid */
      id: string;
      /**
       * Format: uuid
       * @description Owner only
       */
      user_id?: string;
      name: string;
      search_query: string;
      condition_description: string;
      /** @enum {string} */
      state: 'active' | 'paused' | 'completed';
      /** @enum {string} */
      notify_behavior: 'once' | 'always' | 'on_change';
      /** @description Null when the task extracts no values */
      output_schema: components['schemas']['OutputSchemaDto'] | null;
      /** @description Null: a met verdict counts as the model claims it */
      evidence: components['schemas']['EvidenceRuleDto'] | null;
      /** @description Null for a search task; headers are the owner's only: others see url, selector and items */
      pages: components['schemas']['PageTargetDto'][] | null;
      /** @description Null: a model reads the pages */
      page_rule: components['schemas']['PageRuleDto'] | null;
      /** @description Null: no cooldown and no reminders */
      alert_policy: components['schemas']['AlertPolicyDto'] | null;
      /** @description The standing alert; owner only: null for others */
      alert: components['schemas']['StandingAlertResponse'] | null;
      /**
       * Format: date-time
       * @description Set by the agent; null when completed
       */
      next_run: string | null;
      is_public: boolean;
      view_count: number;
      subscriber_count: number;
      /** Format: uuid */
      forked_from_task_id: string | null;
      /** @description State the agent keeps between checks */
      last_known_state: {
        [key: string]: unknown;
      } | null;
      /** Format: uuid */
      last_execution_id: string | null;
      last_execution: components['schemas']['ExecutionResponse'] | null;
      /** @description Owner only (secrets included): empty for others */
      notifications: (
        | components['schemas']['EmailNotificationConfig']
        | components['schemas']['WebhookNotificationConfig']
        | components['schemas']['SlackNotificationConfig']
        | components['schemas']['DiscordNotificationConfig']
        | components['schemas']['NtfyNotificationConfig']
        | components['schemas']['TelegramNotificationConfig']
      )[];
      /** @description Owner only: null for others */
      notification_email: string | null;
      /** @description Owner only: null for others */
      webhook_url: string | null;
      /** Format: date-time */
      state_changed_at: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string | null;
    };
    PageSnapshotResponse: {
      url: string;
      /**
       * @description The latest fetch's status; null when the page was never fetched
       * @enum {string|null}
       */
      status: 'new' | 'same' | 'changed' | 'error' | null;
      /** @description The latest fetch's HTTP status */
      http_status: number | null;
      /** @description The last good fetch: its title */
      title: string | null;
      /** @description The last good fetch: its text */
      text: string | null;
      /** @description The hex SHA-256 of `text` */
      content_hash: string | null;
      /**
       * Format: date-time
       * @description When the last good fetch was made
       */
      fetched_at: string | null;
      /**
       * Format: date-time
       * @description When the text last changed
       */
      changed_at: string | null;
    };
    UpdateTaskDto: {
      name?: string;
      search_query?: string;
      condition_description?: string;
      /** @enum {string} */
      state?: 'active' | 'paused' | 'completed';
      /**
       * @description `on_change` requires an output_schema
       * @enum {string}
       */
      notify_behavior?: 'once' | 'always' | 'on_change';
      /** @description null clears it */
      output_schema?: components['schemas']['OutputSchemaDto'] | null;
      /** @description null clears it */
      evidence?: components['schemas']['EvidenceRuleDto'] | null;
      /** @description null clears it */
      alert_policy?: components['schemas']['AlertPolicyDto'] | null;
      /** @description null clears it, and page_rule with it */
      pages?: components['schemas']['PageTargetDto'][] | null;
      /** @description null clears it */
      page_rule?: components['schemas']['PageRuleDto'] | null;
      /** @description At most one config per type */
      notifications?: (
        | components['schemas']['EmailNotificationConfig']
        | components['schemas']['WebhookNotificationConfig']
        | components['schemas']['SlackNotificationConfig']
        | components['schemas']['DiscordNotificationConfig']
        | components['schemas']['NtfyNotificationConfig']
        | components['schemas']['TelegramNotificationConfig']
      )[];
    };
    AcknowledgedAlertResponse: {
      /** Format: uuid */
      acknowledged_execution_id: string;
      /** Format: date-time */
      acknowledged_at: string;
    };
    SetVisibilityDto: {
      /** @description true: anyone can read and fork the task */
      is_public: boolean;
    };
    VisibilityResponse: {
      is_public: boolean;
    };
    ForkTaskDto: {
      /** @description Default `{original name} (Copy)`, then `(Copy 2)`, `(Copy 3)`... when taken */
      name?: string;
    };
    PublicTaskPage: {
      /** @description Public tasks, without owner data */
      tasks: components['schemas']['TaskResponse'][];
      total: number;
      offset: number;
      limit: number;
    };
    JoinWaitlistDto: {
      /** @example ada@example.com */
      email: string;
    };
    WaitlistJoined: {
      message: string;
      /** @description Place on the waitlist, from 1 */
      position: number;
    };
    UserCounts: {
      total: number;
      active: number;
    };
    TaskCounts: {
      total: number;
      active: number;
      paused: number;
      completed: number;
    };
    ExecutionCounts: {
      total: number;
      success: number;
      failed: number;
    };
    NotificationCounts: {
      /** @description Send attempts */
      total: number;
      failed: number;
    };
    PlatformStats: {
      users: components['schemas']['UserCounts'];
      tasks: components['schemas']['TaskCounts'];
      /** @description Executions created in the last 24 hours */
      executions_24h: components['schemas']['ExecutionCounts'];
      /** @description Send attempts of the last 24 hours */
      notifications_24h: components['schemas']['NotificationCounts'];
    };
    AdminQueryResponse: {
      /** Format: uuid */
      task_id: string;
      /** Format: uuid */
      user_id: string;
      user_email: string | null;
      name: string;
      search_query: string;
      condition_description: string;
      /** @enum {string} */
      state: 'active' | 'paused' | 'completed';
      is_public: boolean;
      /** Format: date-time */
      created_at: string;
    };
    AdminQueryPage: {
      queries: components['schemas']['AdminQueryResponse'][];
      total: number;
    };
    AdminExecutionPage: {
      executions: components['schemas']['ExecutionResponse'][];
      total: number;
    };
    AdminJobResponse: {
      /** Format: uuid */
      job_id: string;
      /** Format: uuid */
      task_id: string | null;
      /**
       * Format: uuid
       * @description Set for a run requested through the API; null for a scheduled check
       */
      execution_id: string | null;
      /** @description The queue state of the job (created, retry, active, ...) */
      state: string;
      /**
       * Format: date-time
       * @description When the queue may start the job: the task's next run
       */
      start_after: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      created_at: string;
      retry_count: number;
    };
    AdminJobPage: {
      jobs: components['schemas']['AdminJobResponse'][];
      total: number;
    };
    AdminErrorResponse: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      task_id: string;
      /** @enum {string} */
      status: 'pending' | 'running' | 'retrying' | 'success' | 'failed' | 'cancelled';
      /** Format: date-time */
      started_at: string;
      /** Format: date-time */
      completed_at: string | null;
      /** @description Null until the run ends; non-owners never see `error` */
      result: {
        [key: string]: unknown;
      } | null;
      /** @description Owner only: null for others */
      error_message: string | null;
      /** @description Owner only: null for others */
      notification: {
        [key: string]: unknown;
      } | null;
      grounding_sources: components['schemas']['GroundingSourceResponse'][] | null;
      /** @description claimed_met, and the evidence rule satisfied when the task has one */
      condition_met: boolean | null;
      /** @description The model's own verdict */
      claimed_met: boolean | null;
      evidence: components['schemas']['EvidenceReportResponse'] | null;
      /** @description The values of the task's output_schema, or each value its pages declare (read, or null); null without either */
      values: {
        [key: string]: (string | null) | number | boolean;
      } | null;
      /** @description Against the previous successful execution with values; null without a schema or page values */
      changes: components['schemas']['ValueChangeResponse'][] | null;
      answer: string | null;
      reasoning: string | null;
      /** @description Null before the run called a provider; owner only */
      usage: components['schemas']['ProviderUsageResponse'] | null;
      /** @description What the check read of each page, in the task's page order; null without pages */
      page_results: components['schemas']['PageResultResponse'][] | null;
      /**
       * Format: uuid
       * @description The execution whose model call or page rule made this verdict
       */
      verdict_execution_id: string | null;
      /** Format: date-time */
      created_at: string;
      task_name: string | null;
      /**
       * Format: uuid
       * @description The task owner
       */
      user_id: string | null;
    };
    AdminErrorPage: {
      errors: components['schemas']['AdminErrorResponse'][];
      total: number;
    };
    AdminUserResponse: {
      /** Format: uuid */
      id: string;
      email: string | null;
      username: string | null;
      /** @enum {string} */
      role: 'user' | 'admin';
      is_admin: boolean;
      /** @enum {string} */
      state: 'active' | 'deactivated';
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      deactivated_at: string | null;
      task_count: number;
    };
    AdminUserPage: {
      users: components['schemas']['AdminUserResponse'][];
      total: number;
    };
    UserUsageResponse: {
      /** @description Checks that called a provider */
      executions: number;
      /** @description Provider-backed operations: checks, suggestions, previews */
      llm_calls: number;
      input_tokens: number;
      output_tokens: number;
      search_calls: number;
      /** @description USD; calls without a known price count 0 */
      cost_usd: number;
      /** Format: uuid */
      user_id: string;
      email: string | null;
    };
    AdminUsagePage: {
      /** @description Highest cost first */
      users: components['schemas']['UserUsageResponse'][];
      total: number;
    };
    UserDeactivated: {
      /** @enum {string} */
      status: 'deactivated';
      /** Format: uuid */
      user_id: string;
      /** @description How many of the user's tasks were paused */
      tasks_paused: number;
    };
    UserReactivated: {
      /** @enum {string} */
      status: 'active';
      /** Format: uuid */
      user_id: string;
    };
    MonthlyUsageResponse: {
      /** @description Checks that called a provider */
      executions: number;
      /** @description Provider-backed operations: checks, suggestions, previews */
      llm_calls: number;
      input_tokens: number;
      output_tokens: number;
      search_calls: number;
      /** @description USD; calls without a known price count 0 */
      cost_usd: number;
      /**
       * @description UTC month
       * @example 2026-11
       */
      month: string;
      /** @description `USER_MONTHLY_BUDGET_USD`; null: no budget */
      budget_usd: number | null;
    };
    SendRecordResponse: {
      /** Format: uuid */
      id: string;
      /**
       * Format: uuid
       * @description The task owner
       */
      user_id: string;
      /** Format: uuid */
      task_id: string;
      /**
       * Format: uuid
       * @description The execution that triggered the send; null for a test send
       */
      execution_id: string | null;
      /** @description Free of secrets: the email address; for URL channels the origin, then `/****` when the URL has a path or query; the Telegram chat_id */
      recipient: string;
      /** @enum {string} */
      notification_type: 'email' | 'webhook' | 'slack' | 'discord' | 'ntfy' | 'telegram';
      /** @enum {string} */
      event:
        | 'condition_met'
        | 'check_failing'
        | 'check_recovered'
        | 'values_changed'
        | 'condition_retracted'
        | 'test'
        | 'reminder'
        | 'digest';
      /**
       * @description One record per attempt; `held` waits (quiet hours, a cooldown, a digest) and becomes the outcome when it goes out; `skipped` was not sent
       * @enum {string}
       */
      status: 'success' | 'failed' | 'held' | 'skipped';
      /** @description Set when delivery failed */
      error_message: string | null;
      /**
       * Format: date-time
       * @description When the attempt was made
       */
      created_at: string;
    };
    SendHistoryResponse: {
      sends: components['schemas']['SendRecordResponse'][];
      /** @description Records matching the filters, all pages */
      total: number;
    };
    TaskNotificationResponse: {
      /**
       * Format: uuid
       * @description The execution
       */
      id: string;
      /** Format: uuid */
      task_id: string;
      task_name: string;
      /** @enum {string} */
      status: 'success';
      /** @enum {boolean} */
      condition_met: true;
      answer: string;
      reasoning: string;
      grounding_sources: components['schemas']['GroundingSourceResponse'][];
      /** Format: date-time */
      created_at: string;
    };
    TestNotificationDto: {
      /**
       * @description Only this config; default: all
       * @enum {string}
       */
      type?: 'email' | 'webhook' | 'slack' | 'discord' | 'ntfy' | 'telegram';
    };
    TestSendResult: {
      /** @enum {string} */
      notification_type: 'email' | 'webhook' | 'slack' | 'discord' | 'ntfy' | 'telegram';
      /** @enum {string} */
      status: 'success' | 'failed';
      error_message: string | null;
    };
    TestNotificationResponse: {
      /** @description One per config tried */
      results: components['schemas']['TestSendResult'][];
    };
    RequestEmailVerificationDto: {
      /** @example team@example.com */
      email: string;
    };
    EmailVerificationResponse: {
      email: string;
      /** @enum {string} */
      status: 'pending' | 'verified';
    };
    ConfirmEmailVerificationDto: {
      /** @example team@example.com */
      email: string;
      /**
       * @description The 6-digit code mailed to the address
       * @example 123456
       */
      code: string;
    };
    EmailVerificationListItem: {
      email: string;
      /** @enum {string} */
      status: 'pending' | 'verified';
      /** Format: date-time */
      verified_at: string | null;
    };
    /** @description A Email config */
    EmailNotificationConfig: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'email';
      /** @description Absent: every event */
      events?: (
        | 'condition_met'
        | 'check_failing'
        | 'check_recovered'
        | 'values_changed'
        | 'condition_retracted'
      )[];
      /**
       * @description instant (absent): each event is sent as it happens; digest: the events go into the owner's digest, one message per destination per period
       * @enum {string}
       */
      delivery?: 'instant' | 'digest';
      /**
       * Format: date-time
       * @description When the config paused itself after deliveries in a row failed
       */
      readonly paused_at?: string;
      /** @description `<N> deliveries in a row failed: <last error>` */
      readonly pause_reason?: string;
      /**
       * Format: email
       * @description Address
       */
      address: string;
    };
    /** @description A Webhook config */
    WebhookNotificationConfig: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'webhook';
      /** @description Absent: every event */
      events?: (
        | 'condition_met'
        | 'check_failing'
        | 'check_recovered'
        | 'values_changed'
        | 'condition_retracted'
      )[];
      /**
       * @description instant (absent): each event is sent as it happens; digest: the events go into the owner's digest, one message per destination per period
       * @enum {string}
       */
      delivery?: 'instant' | 'digest';
      /**
       * Format: date-time
       * @description When the config paused itself after deliveries in a row failed
       */
      readonly paused_at?: string;
      /** @description `<N> deliveries in a row failed: <last error>` */
      readonly pause_reason?: string;
      /**
       * Format: uri
       * @description URL. Deliveries are signed with a secret the service makes; a new URL gets a new one.
       */
      url: string;
      /**
       * @description Method
       * @default POST
       * @enum {string}
       */
      method: 'POST' | 'PUT' | 'PATCH';
      /** @description Headers */
      headers?: {
        [key: string]: string;
      };
      /** @description Signing secret, made by the service (owner only) */
      readonly secret?: string;
    };
    /** @description A Slack config */
    SlackNotificationConfig: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'slack';
      /** @description Absent: every event */
      events?: (
        | 'condition_met'
        | 'check_failing'
        | 'check_recovered'
        | 'values_changed'
        | 'condition_retracted'
      )[];
      /**
       * @description instant (absent): each event is sent as it happens; digest: the events go into the owner's digest, one message per destination per period
       * @enum {string}
       */
      delivery?: 'instant' | 'digest';
      /**
       * Format: date-time
       * @description When the config paused itself after deliveries in a row failed
       */
      readonly paused_at?: string;
      /** @description `<N> deliveries in a row failed: <last error>` */
      readonly pause_reason?: string;
      /**
       * Format: uri
       * @description Incoming webhook URL
       */
      url: string;
    };
    /** @description A Discord config */
    DiscordNotificationConfig: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'discord';
      /** @description Absent: every event */
      events?: (
        | 'condition_met'
        | 'check_failing'
        | 'check_recovered'
        | 'values_changed'
        | 'condition_retracted'
      )[];
      /**
       * @description instant (absent): each event is sent as it happens; digest: the events go into the owner's digest, one message per destination per period
       * @enum {string}
       */
      delivery?: 'instant' | 'digest';
      /**
       * Format: date-time
       * @description When the config paused itself after deliveries in a row failed
       */
      readonly paused_at?: string;
      /** @description `<N> deliveries in a row failed: <last error>` */
      readonly pause_reason?: string;
      /**
       * Format: uri
       * @description Webhook URL
       */
      url: string;
    };
    /** @description A ntfy config */
    NtfyNotificationConfig: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'ntfy';
      /** @description Absent: every event */
      events?: (
        | 'condition_met'
        | 'check_failing'
        | 'check_recovered'
        | 'values_changed'
        | 'condition_retracted'
      )[];
      /**
       * @description instant (absent): each event is sent as it happens; digest: the events go into the owner's digest, one message per destination per period
       * @enum {string}
       */
      delivery?: 'instant' | 'digest';
      /**
       * Format: date-time
       * @description When the config paused itself after deliveries in a row failed
       */
      readonly paused_at?: string;
      /** @description `<N> deliveries in a row failed: <last error>` */
      readonly pause_reason?: string;
      /**
       * Format: uri
       * @description Topic URL
       */
      url: string;
      /** @description Access token */
      token?: string;
    };
    /** @description A Telegram config */
    TelegramNotificationConfig: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'telegram';
      /** @description Absent: every event */
      events?: (
        | 'condition_met'
        | 'check_failing'
        | 'check_recovered'
        | 'values_changed'
        | 'condition_retracted'
      )[];
      /**
       * @description instant (absent): each event is sent as it happens; digest: the events go into the owner's digest, one message per destination per period
       * @enum {string}
       */
      delivery?: 'instant' | 'digest';
      /**
       * Format: date-time
       * @description When the config paused itself after deliveries in a row failed
       */
      readonly paused_at?: string;
      /** @description `<N> deliveries in a row failed: <last error>` */
      readonly pause_reason?: string;
      /** @description Chat id */
      chat_id: string;
      /** @description Bot token */
      bot_token: string;
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
  HealthController_health: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every component answers */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'ok';
          } & {
            [key: string]: 'ok' | 'unavailable';
          };
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  UsernameController_setUsername: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SetUsernameDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UsernameClaimed'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Conflicts with the current state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  UsernameController_checkAvailability: {
    parameters: {
      query: {
        username: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UsernameAvailability'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  PreferencesController_get: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PreferencesResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  PreferencesController_put: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Each object named replaces the stored one whole; the others stay */
    requestBody: {
      content: {
        'application/json': components['schemas']['PreferencesResponse'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PreferencesResponse'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AuthController_syncUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SyncedUserResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AuthController_me: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AuthController_roles: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CallerRolesResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AuthController_listApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKeyResponse'][];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AuthController_createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateApiKeyDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedApiKeyResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Conflicts with the current state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AuthController_revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKeyRevokedResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  ExecutionsController_execute: {
    parameters: {
      query?: {
        /** @description Cancel a pending or running execution and start a new one */
        force?: boolean;
      };
      header?: {
        /** @description A key of 1 to 255 visible ASCII characters: the same request with the same key within 24 hours answers the first answer again (header `Idempotent-Replayed: true`; a webhook `secret` as null, a 422 without `input`); another request with it is a 422, one while the first is still in progress a 409, and a new key while the user holds 10,000 live keys a 429. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ExecuteTaskBodyDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExecutionResponse'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /**
       * @description Conflicts with the current state
       *
       *     Conflicts with the current state
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /**
       * @description Invalid input: one entry per rejected value
       *
       *     Invalid input: one entry per rejected value
       */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  ExecutionsController_list: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        status?: 'pending' | 'running' | 'retrying' | 'success' | 'failed' | 'cancelled';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExecutionResponse'][];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_list: {
    parameters: {
      query?: {
        state?: 'active' | 'paused' | 'completed';
        /** @description Page size; unset: every task */
        limit?: number;
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskResponse'][];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of 1 to 255 visible ASCII characters: the same request with the same key within 24 hours answers the first answer again (header `Idempotent-Replayed: true`; a webhook `secret` as null, a 422 without `input`); another request with it is a 422, one while the first is still in progress a 409, and a new key while the user holds 10,000 live keys a 429. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTaskDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedTaskResponse'];
        };
      };
      /**
       * @description The request breaks a rule of the service
       *
       *     The request breaks a rule of the service
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /**
       * @description Conflicts with the current state
       *
       *     Conflicts with the current state
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /**
       * @description Invalid input: one entry per rejected value
       *
       *     Invalid input: one entry per rejected value
       */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_suggest: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SuggestTaskDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SuggestResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description The grounded-search provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_preview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PreviewTaskDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PreviewResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description The grounded-search provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateTaskDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskResponse'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Conflicts with the current state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description The change failed and was rolled back */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_pages: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PageSnapshotResponse'][];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_screenshot: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        index: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The PNG */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_acknowledge: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AcknowledgedAlertResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Conflicts with the current state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TasksController_resume: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        type: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TaskSharingController_setVisibility: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SetVisibilityDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VisibilityResponse'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  TaskSharingController_fork: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of 1 to 255 visible ASCII characters: the same request with the same key within 24 hours answers the first answer again (header `Idempotent-Replayed: true`; a webhook `secret` as null, a 422 without `input`); another request with it is a 422, one while the first is still in progress a 409, and a new key while the user holds 10,000 live keys a 429. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ForkTaskDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskResponse'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /**
       * @description Conflicts with the current state
       *
       *     Conflicts with the current state
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /**
       * @description Invalid input: one entry per rejected value
       *
       *     Invalid input: one entry per rejected value
       */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  PublicTasksController_list: {
    parameters: {
      query?: {
        offset?: number;
        limit?: number;
        /** @description recent: newest first; popular: most viewed, then most forked */
        sort_by?: 'recent' | 'popular';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PublicTaskPage'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
    };
  };
  PublicTasksController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
    };
  };
  TaskFeedController_rss: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The feed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/rss+xml': string;
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
    };
  };
  WaitlistController_join: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['JoinWaitlistDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WaitlistJoined'];
        };
      };
      /** @description Conflicts with the current state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
    };
  };
  AdminController_getStats: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PlatformStats'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_listQueries: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminQueryPage'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_listExecutions: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminExecutionPage'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_listSchedulerJobs: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminJobPage'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_listErrors: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminErrorPage'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_listUsers: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminUserPage'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_listUsage: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        /** @description UTC month; default: this month */
        month?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminUsagePage'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_deactivateUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserDeactivated'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description The change failed and was rolled back */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  AdminController_reactivateUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserReactivated'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Admin access required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  UsageController_get: {
    parameters: {
      query?: {
        /** @description UTC month; default: this month */
        month?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MonthlyUsageResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  NotificationsController_listSends: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        notification_type?: 'email' | 'webhook' | 'slack' | 'discord' | 'ntfy' | 'telegram';
        task_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SendHistoryResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  NotificationsController_listForTask: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
      };
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskNotificationResponse'][];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  NotificationsController_sendTest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        task_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TestNotificationDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestNotificationResponse'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  EmailVerificationController_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailVerificationListItem'][];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  EmailVerificationController_request: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RequestEmailVerificationDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailVerificationResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  EmailVerificationController_confirm: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ConfirmEmailVerificationDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailVerificationResponse'];
        };
      };
      /** @description The request breaks a rule of the service */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Request body larger than 100 kB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description A JSON body in another charset than UTF-8, or compressed (Content-Encoding) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Invalid input: one entry per rejected value */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  EmailVerificationController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        email: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Credentials missing, invalid or expired, or the account is deactivated */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Not found, or not visible to the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Rate limit exceeded */
      429: {
        headers: {
          /** @description Seconds to wait */
          'Retry-After'?: number;
          /** @description The limit of the window */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left in the window */
          'X-RateLimit-Remaining'?: number;
          /** @description When the window resets (epoch seconds) */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RateLimitErrorResponse'];
        };
      };
      /** @description A dependency is unavailable (identity-provider keys, search provider) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
}
