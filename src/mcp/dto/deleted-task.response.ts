import { ApiProperty } from '@nestjs/swagger';

/** `delete_task`'s answer, where `DELETE /api/v1/tasks/{id}` answers 204 without a body. */
export class DeletedTaskResponse {
  @ApiProperty({ format: 'uuid', description: 'The deleted task' })
  id: string;

  @ApiProperty({ description: 'Always true: the task and its history are gone' })
  deleted: true;
}
