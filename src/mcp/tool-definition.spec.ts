import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { defineOperation } from '../common/operations/operation';
import { RequiredText } from '../common/validation/fields';
import { defineTool, type ArgumentReader, type ArgumentsLocation } from './tool-definition';

class GreetingDto {
  @RequiredText()
  name: string;
}

class FarewellDto {
  @RequiredText()
  farewell: string;
}

class Greeting {
  @ApiProperty()
  text: string;
}

/** A service of the kind an operation calls; it records what it was asked. */
class Greeter {
  static readonly asked: unknown[][] = [];

  greet(caller: AuthenticatedUser, id: string, name: string): Promise<Greeting> {
    Greeter.asked.push(['greet', caller.id, id, name]);
    return Promise.resolve({ text: `Hello ${name}` });
  }

  forget(id: string): Promise<void> {
    Greeter.asked.push(['forget', id]);
    return Promise.resolve();
  }
}

/** Resolves a service as the MCP service does, by its class, noting each class asked for. */
const resolved: unknown[] = [];
function resolve<T>(service: Type<T>): T {
  resolved.push(service);
  return new service();
}

const greet = defineOperation({
  service: Greeter,
  ids: ['id'],
  callsModel: true,
  run: (greeter, caller: AuthenticatedUser, { id }, body: GreetingDto) =>
    greeter.greet(caller, id, body.name),
});

const forget = defineOperation({
  service: Greeter,
  ids: ['id'],
  callsModel: false,
  run: (greeter, _caller: AuthenticatedUser, { id }) => greeter.forget(id),
});

const CALLER = { id: 'user-1' } as AuthenticatedUser;
const TASK_ID = '0b9f6f3e-8d1c-4c39-9a7e-3f5d2c1b0a99';

/** Reads the arguments as given: the ids by name, the DTO as `fields` filled in. */
function readerOf(fields: object): ArgumentReader & { read: [string, ArgumentsLocation][] } {
  const read: [string, ArgumentsLocation][] = [];
  return {
    read,
    ids: <Id extends string>(names: readonly Id[]) =>
      Promise.resolve(
        Object.fromEntries(names.map((name) => [name, TASK_ID])) as Record<Id, string>,
      ),
    dto: <T extends object>(dto: new () => T, location: ArgumentsLocation) => {
      read.push([dto.name, location]);
      return Promise.resolve(Object.assign(new dto(), fields));
    },
  };
}

const ABOUT = { title: 'A tool', description: 'What it does', annotations: {} };

describe('defineTool', () => {
  beforeEach(() => {
    Greeter.asked.length = 0;
    resolved.length = 0;
  });

  it('should run the operation on its service with the ids and the DTO read from the arguments', async () => {
    const tool = defineTool({
      name: 'greet',
      ...ABOUT,
      operation: greet,
      input: { dto: GreetingDto, in: 'body' },
      response: Greeting,
      followUp: ({ text }) => `Said ${text}`,
    });
    expect(tool).toMatchObject({
      ids: ['id'],
      dto: { type: GreetingDto, in: 'body' },
      callsModel: true,
      response: Greeting,
      list: false,
    });
    const reader = readerOf({ name: 'Ada' });
    const answer = await tool.bind(resolve)(CALLER, reader);
    expect(resolved).toEqual([Greeter]);
    expect(reader.read).toEqual([['GreetingDto', 'body']]);
    expect(Greeter.asked).toEqual([['greet', 'user-1', TASK_ID, 'Ada']]);
    expect(answer).toEqual({ answer: { text: 'Hello Ada' }, followUp: 'Said Hello Ada' });
  });

  it('should give the operation the fixed input, reading no DTO, when the tool has one', async () => {
    const tool = defineTool({
      name: 'greet_bob',
      ...ABOUT,
      operation: greet,
      input: { fixed: { name: 'Bob' } },
      response: Greeting,
    });
    expect(tool.dto).toBeUndefined();
    const reader = readerOf({ name: 'Ada' });
    const answer = await tool.bind(resolve)(CALLER, reader);
    expect(reader.read).toEqual([]);
    expect(Greeter.asked).toEqual([['greet', 'user-1', TASK_ID, 'Bob']]);
    expect(answer.answer).toEqual({ text: 'Hello Bob' });
  });

  it('should answer what `answer` makes of the result when the operation answers nothing', async () => {
    const tool = defineTool({
      name: 'forget',
      ...ABOUT,
      operation: forget,
      answer: (_, { id }): Greeting => ({ text: `Forgot ${id}` }),
      response: Greeting,
    });
    const answer = await tool.bind(resolve)(CALLER, readerOf({}));
    expect(Greeter.asked).toEqual([['forget', TASK_ID]]);
    expect(answer.answer).toEqual({ text: `Forgot ${TASK_ID}` });
  });

  it('should say that the answer is a list when the response is given as [Class]', () => {
    const list = defineOperation({
      service: Greeter,
      ids: [],
      callsModel: false,
      run: (greeter, caller: AuthenticatedUser): Promise<Greeting[]> =>
        Promise.all([greeter.greet(caller, TASK_ID, 'Ada')]),
    });
    const tool = defineTool({ name: 'list', ...ABOUT, operation: list, response: [Greeting] });
    expect(tool).toMatchObject({ ids: [], response: Greeting, list: true });
  });
});

/**
 * Definitions that must not compile: `npm run typecheck` fails on a `@ts-expect-error` that
 * finds no error. Never called.
 */
function _definitionsThatDoNotCompile(): void {
  defineTool({
    name: 'wrong_dto',
    ...ABOUT,
    operation: greet,
    // @ts-expect-error A DTO that does not make the operation's input.
    input: { dto: FarewellDto, in: 'body' },
    response: Greeting,
  });
  // @ts-expect-error An operation that takes an input is given none.
  defineTool({ name: 'no_input', ...ABOUT, operation: greet, response: Greeting });
  defineTool({
    name: 'needless_input',
    ...ABOUT,
    operation: forget,
    // @ts-expect-error An operation that takes no input is given one.
    input: { dto: GreetingDto, in: 'body' },
    response: Greeting,
  });
  defineTool({
    name: 'wrong_response',
    ...ABOUT,
    operation: greet,
    input: { dto: GreetingDto, in: 'body' },
    // @ts-expect-error A response class that does not describe the answer.
    response: FarewellDto,
  });
  defineTool({
    name: 'wrong_follow_up',
    ...ABOUT,
    operation: greet,
    input: { dto: GreetingDto, in: 'body' },
    response: Greeting,
    // @ts-expect-error A follow-up of another result than the operation's.
    followUp: (result: FarewellDto) => result.farewell,
  });
  // @ts-expect-error A handler passes the operation a service of another kind.
  void greet.run(new FarewellDto(), CALLER, { id: TASK_ID }, { name: 'Ada' });
}
