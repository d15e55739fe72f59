/**
 * The API's shapes as the console names them: each is a type that api-types.ts, generated from
 * the API document, declares (docs/api.md).
 */
import type { components } from './api-types';

type Schemas = components['schemas'];

export type Task = Schemas['TaskResponse'];
export type TaskState = Task['state'];
export type NotifyBehavior = Task['notify_behavior'];
export type Execution = Schemas['ExecutionResponse'];
export type Source = Schemas['GroundingSourceResponse'];
export type OutputValue = NonNullable<Execution['values']>[string];
/** `GET /auth/me` with `GET /auth/me/roles`. */
export type Me = Schemas['UserResponse'] & Schemas['CallerRolesResponse'];
export type SendRecord = Schemas['SendRecordResponse'];
export type TestSendResult = Schemas['TestSendResult'];
export type Preview = Schemas['PreviewResponse'];
export type Suggestion = Schemas['SuggestResponse'];
export type UsageMonth = Schemas['MonthlyUsageResponse'];
export type PageTarget = Schemas['PageTargetDto'];
export type PageValueTarget = Schemas['PageValueDto'];
export type PageValueSource = PageValueTarget['from'];
export type PageRule = Schemas['PageRuleDto'];
export type PageRuleType = PageRule['type'];
export type PageResult = Schemas['PageResultResponse'];
export type PageSnapshot = Schemas['PageSnapshotResponse'];
export type AlertPolicy = Schemas['AlertPolicyDto'];
export type StandingAlert = Schemas['StandingAlertResponse'];
export type Preferences = Schemas['PreferencesResponse'];
export type DigestSchedule = Schemas['DigestScheduleDto'];
