import { expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Paging bounds of every list', () => {
  let testApp: TestApp;
  let admin: TestUser;
  let lists: string[];

  beforeAll(async () => {
    testApp = await startTestApp();
    const factory = new Factory(testApp);
    admin = await factory.user({ admin: true });
    const { id: taskId } = await factory.task(admin, {
      search_query: 'Has the paging limit been documented?',
    });
    lists = [
      `/api/v1/tasks/${taskId}/executions`,
      `/api/v1/tasks/${taskId}/notifications`,
      '/api/v1/notifications/sends',
      '/api/v1/public/tasks',
      '/admin/queries',
      '/admin/executions',
      '/admin/scheduler/jobs',
      '/admin/errors',
      '/admin/users',
    ];
  });

  afterAll(() => testApp.close());

  it.each(['1e21', '1000001', '1.5', '-1'])(
    'should answer 422 on every list when offset is %s',
    async (offset) => {
      for (const path of lists) {
        const response = await testApp.http
          .get(`${path}?offset=${offset}`)
          .set('Authorization', admin.auth);
        expectValidationError(response, [{ type: expect.any(String), loc: ['query', 'offset'] }]);
      }
    },
  );

  it('should answer 200 on every list when offset is 1000000', async () => {
    for (const path of lists) {
      const response = await testApp.http
        .get(`${path}?offset=1000000`)
        .set('Authorization', admin.auth);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });
});
