import { costOf, pricesFor, priceUsage, UNKNOWN_PRICES, type ListPrice } from './provider-usage';

const LIST: ListPrice = {
  model: 'model-a',
  prices: { inputPerMTok: 0.3, outputPerMTok: 2.5, perSearch: 0.035 },
};
const TOKENS = { inputTokens: 2_000, outputTokens: 500, searchCalls: 1 };

describe('provider usage and prices', () => {
  it('should price tokens and searches when every price is known', () => {
    // 2,000 × 0.30/M + 500 × 2.50/M + 1 × 0.035
    expect(costOf(TOKENS, LIST.prices)).toBe(0.03685);
  });

  it('should prefer the provider figure when the reply reports a cost', () => {
    expect(costOf({ ...TOKENS, reportedCostUsd: 0.0123456789 }, LIST.prices)).toBe(0.012346);
  });

  it('should give a null cost when one price is unknown', () => {
    expect(costOf(TOKENS, { ...LIST.prices, perSearch: null })).toBeNull();
  });

  it('should use the list price when the model is the default one', () => {
    expect(pricesFor(LIST, 'model-a', UNKNOWN_PRICES)).toEqual(LIST.prices);
  });

  it('should know only the overrides when another model is configured', () => {
    const overrides = { inputPerMTok: 1, outputPerMTok: null, perSearch: 0 };
    expect(pricesFor(LIST, 'model-b', overrides)).toEqual(overrides);
  });

  it('should override the list price one price at a time when variables are set', () => {
    const overrides = { inputPerMTok: null, outputPerMTok: 4, perSearch: null };
    expect(pricesFor(LIST, 'model-a', overrides)).toEqual({
      inputPerMTok: 0.3,
      outputPerMTok: 4,
      perSearch: 0.035,
    });
  });

  it('should apply a list price to every model when it names none', () => {
    const anyModel: ListPrice = {
      model: null,
      prices: { inputPerMTok: null, outputPerMTok: null, perSearch: 0 },
    };
    expect(
      pricesFor(anyModel, 'qwen3', { inputPerMTok: 0, outputPerMTok: 0, perSearch: null }),
    ).toEqual({
      inputPerMTok: 0,
      outputPerMTok: 0,
      perSearch: 0,
    });
  });

  it('should report the usage fields when usage is priced', () => {
    expect(priceUsage('gemini', 'model-a', TOKENS, LIST.prices)).toEqual({
      provider: 'gemini',
      model: 'model-a',
      input_tokens: 2_000,
      output_tokens: 500,
      search_calls: 1,
      cost_usd: 0.03685,
    });
  });
});
