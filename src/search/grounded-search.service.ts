import { BadGatewayException, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { GroundingSourceResponse } from '../executions/execution.mapper';
import {
  ProviderError,
  ProviderNotConfiguredError,
  SearchProvider,
  type NotifyBehavior,
  type SuggestRequest,
  type SuggestResult,
} from './search-provider';

export class PreviewResponse {
  @ApiProperty()
  condition_met: boolean;

  @ApiProperty()
  answer: string;

  @ApiProperty()
  reasoning: string;

  @ApiProperty({ type: [GroundingSourceResponse] })
  grounding_sources: GroundingSourceResponse[];
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
  notify_behavior: NotifyBehavior;
}

/** Suggest and preview for the API: provider errors become 503 (none configured) or 502. */
@Injectable()
export class GroundedSearchService {
  constructor(private readonly provider: SearchProvider) {}

  async preview(searchQuery: string, conditionDescription: string): Promise<PreviewResponse> {
    const result = await this.call(() =>
      this.provider.check({ searchQuery, conditionDescription, previousState: null, previousCheckAt: null, now: new Date() }),
    );
    return {
      condition_met: result.conditionMet,
      answer: result.answer,
      reasoning: result.reasoning,
      grounding_sources: result.groundingSources,
    };
  }

  suggest(request: SuggestRequest): Promise<SuggestResponse> {
    return this.call(() => this.provider.suggest(request));
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    if (!this.provider.isConfigured()) throw new ServiceUnavailableException(new ProviderNotConfiguredError().message);
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProviderNotConfiguredError) throw new ServiceUnavailableException(error.message);
      if (error instanceof ProviderError) throw new BadGatewayException(`Grounded search failed: ${error.message}`);
      throw error;
    }
  }
}
