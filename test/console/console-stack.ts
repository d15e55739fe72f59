import type { Browser } from 'playwright-core';
import { buildConsole } from '../../console/build';
import { Factory } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { ProviderScript, ROOMY_RATE_LIMITS } from '../tasks/task-api';
import { launchChromium } from './console-browser';

/** What a console browser test runs against: the built console, the service and its stand-ins. */
export interface ConsoleStack {
  testApp: TestApp;
  gemini: GeminiStandIn;
  provider: ProviderScript;
  receiver: WebhookReceiver;
  browser: Browser;
  factory: Factory;
  stop(): Promise<void>;
}

/** Builds the console and starts Chromium, the Gemini stand-in, a webhook receiver and the app. */
export async function startConsoleStack(env: Record<string, string> = {}): Promise<ConsoleStack> {
  await buildConsole();
  const [gemini, receiver, browser] = await Promise.all([
    new GeminiStandIn().start(),
    new WebhookReceiver().start(),
    launchChromium(),
  ]);
  const stopStandIns = async (): Promise<void> => {
    await browser.close();
    await Promise.all([gemini.stop(), receiver.stop()]);
  };
  let testApp: TestApp;
  try {
    testApp = await startTestApp({ gemini, env: { ...ROOMY_RATE_LIMITS, ...env } });
  } catch (error) {
    await stopStandIns();
    throw error;
  }
  return {
    testApp,
    gemini,
    provider: new ProviderScript(gemini),
    receiver,
    browser,
    factory: new Factory(testApp),
    async stop() {
      await testApp.close();
      await stopStandIns();
    },
  };
}
