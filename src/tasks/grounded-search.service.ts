import { BadGatewayException, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Clock } from '../common/clock/clock';
import { InjectConfig } from '../config/config-slice';
import { GroundingSourceResponse, OUTPUT_VALUE_SCHEMA } from '../executions/execution.mapper';
import { allPagesFailed, pageSources, promptPages } from '../pages/results/page-prompt';
import { pageResultLine } from '../pages/results/page-result-line';
import { PageResultResponse } from '../pages/results/page-result.response';
import { PageStage } from '../pages/page-stage.service';
import { readTaskValues } from '../pages/values/task-values';
import type { PageTarget } from '../pages/page.types';
import { pagesConfig, type PagesConfig } from '../pages/pages.config';
import type { OutputSchema, OutputValues } from '../search/output-schema';
import {
  ProviderError,
  SearchProvider,
  type CheckResult,
  type PromptPage,
  type ProviderUsage,
  type SuggestRequest,
  type SuggestResult,
} from '../search/search-provider';
import { ProviderNotConfiguredError } from '../search/search-provider.registry';
import { UsageService } from '../usage/usage.service';
import type { NotifyBehavior } from '../search/search.types';
import type { PreviewTaskDto } from './dto/preview-task.dto';
import { promptUrls } from './prompt-urls';
import { TaskDefinitions } from './task-definitions.service';

export class PreviewResponse {
  @ApiProperty()
  condition_met: boolean;

  @ApiProperty()
  answer: string;

  @ApiProperty()
  reasoning: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: OUTPUT_VALUE_SCHEMA,
    nullable: true,
    description:
      'The values of the output_schema sent, or those the pages read; null without either',
  })
  values: OutputValues | null;

  @ApiProperty({ type: [GroundingSourceResponse] })
  grounding_sources: GroundingSourceResponse[];

  @ApiPropertyOptional({
    type: [PageResultResponse],
    description:
      'With `pages` only: each page as read now (every page `new` or `error`), as in an execution',
  })
  page_results?: PageResultResponse[];
}

export class SuggestedPageResponse {
  @ApiProperty()
  url: string;
}

export class SuggestResponse implements SuggestResult {
  @ApiProperty()
  name: string;

  @ApiProperty()
  search_query: string;

  @ApiProperty()
  condition_description: string;

  @ApiProperty({ description: 'A 5-field cron expression', example: '0 9 * * *' })
  schedule: string;

  @ApiProperty({ enum: ['once', 'always'] })
  notify_behavior: Exclude<NotifyBehavior, 'on_change'>;

  @ApiPropertyOptional({
    type: [SuggestedPageResponse],
    description:
      'The first 10 distinct http or https URLs of the prompt, in its order; absent when it holds none',
  })
  pages?: SuggestedPageResponse[];
}

/**
 * Suggest and preview for the API: within the caller's monthly budget (else 429), counted in
 * the caller's usage whether the call succeeds or not; provider errors become 503 (none
 * configured) or 502.
 */
@Injectable()
export class GroundedSearchService {
  constructor(
    private readonly provider: SearchProvider,
    private readonly usage: UsageService,
    private readonly clock: Clock,
    private readonly pageStage: PageStage,
    private readonly definitions: TaskDefinitions,
    @InjectConfig(pagesConfig) private readonly pagesSettings: PagesConfig,
  ) {}

  /**
   * One check as a task with these fields would run it, read as a create reads them. With
   * `pages`, they are fetched now, every one new (nothing is stored), and the model reads
   * them without searching; when none could be read, no model is called (docs/pages.md,
   * "Previews").
   */
  async preview(userId: string, request: PreviewTaskDto): Promise<PreviewResponse> {
    const { searchQuery, conditionDescription, outputSchema, pages } = this.definitions.read(
      request,
      null,
    );
    const question = { searchQuery, conditionDescription };
    if (pages !== null) {
      await this.definitions.checkPages(pages);
      return this.previewPages(userId, question, outputSchema, pages);
    }
    const result = await this.previewCheck(userId, question, outputSchema);
    return { ...previewVerdict(result), grounding_sources: result.groundingSources };
  }

  private async previewPages(
    userId: string,
    question: PreviewQuestion,
    outputSchema: OutputSchema | null,
    pages: PageTarget[],
  ): Promise<PreviewResponse> {
    // Nothing is kept from a preview: a list's items are all new to it, for the model to judge.
    const read = await this.pageStage.readPages(userId, pages, new Map(), true);
    const shown = promptPages(read, this.pagesSettings.promptMaxChars);
    const pageResults = read.map(pageResultLine);
    if (shown.length === 0) {
      const failed = allPagesFailed(read);
      return {
        condition_met: false,
        answer: failed,
        reasoning: `${failed}. No page could be read, so no model was asked.`,
        values: readTaskValues(read),
        grounding_sources: [],
        page_results: pageResults,
      };
    }
    const result = await this.previewCheck(userId, question, outputSchema, shown);
    const verdict = previewVerdict(result);
    return {
      ...verdict,
      // Page values are what the pages read, not the model (docs/pages.md, "Values read from pages").
      values: readTaskValues(read) ?? verdict.values,
      grounding_sources: pageSources(read),
      page_results: pageResults,
    };
  }

  /** The preview's one model call: a web search, or a reading of `pages` without one. */
  private previewCheck(
    userId: string,
    question: PreviewQuestion,
    outputSchema: OutputSchema | null,
    pages?: PromptPage[],
  ): Promise<CheckResult> {
    return this.call(userId, 'preview', async () => {
      const check = await this.provider.check({
        ...question,
        previousState: null,
        previousCheckAt: null,
        now: this.clock.now(),
        outputSchema,
        pages,
        purpose: 'preview',
      });
      return { value: check, usage: check.usage };
    });
  }

  /** A task configuration for the prompt; the pages are the prompt's own URLs, not the model's. */
  async suggest(userId: string, request: SuggestRequest): Promise<SuggestResponse> {
    const suggestion = await this.call(userId, 'suggest', async () => {
      const { suggestion, usage } = await this.provider.suggest(request);
      return { value: suggestion, usage };
    });
    const urls = promptUrls(request.prompt);
    return urls.length === 0 ? suggestion : { ...suggestion, pages: urls.map((url) => ({ url })) };
  }

  private async call<T>(
    userId: string,
    kind: 'suggest' | 'preview',
    work: () => Promise<{ value: T; usage: ProviderUsage }>,
  ): Promise<T> {
    if (!this.provider.isConfigured()) {
      throw new ServiceUnavailableException(new ProviderNotConfiguredError().message);
    }
    // The budget check and the call's reservation are one step (docs/api.md, "Usage"); the
    // reservation ends with the call's usage, or without it when the call billed nothing.
    const reservation = await this.usage.reserveCall(userId);
    let recorded = false;
    try {
      const { value, usage } = await work();
      await this.usage.recordCall(userId, kind, usage, reservation);
      recorded = true;
      return value;
    } catch (error) {
      if (error instanceof ProviderNotConfiguredError) {
        throw new ServiceUnavailableException(error.message);
      }
      if (error instanceof ProviderError) {
        if (error.usage !== null) {
          await this.usage.recordCall(userId, kind, error.usage, reservation);
          recorded = true;
        }
        throw new BadGatewayException(`Grounded search failed: ${error.message}`);
      }
      throw error;
    } finally {
      if (!recorded) await this.usage.releaseCalls([reservation]);
    }
  }
}

/** What a preview asks, as a task with these fields would ask it. */
interface PreviewQuestion {
  searchQuery: string;
  conditionDescription: string;
}

function previewVerdict(
  result: CheckResult,
): Pick<PreviewResponse, 'condition_met' | 'answer' | 'reasoning' | 'values'> {
  return {
    condition_met: result.conditionMet,
    answer: result.answer,
    reasoning: result.reasoning,
    values: result.values,
  };
}
