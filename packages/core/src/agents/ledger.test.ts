import { describe, expect, it } from 'vitest';
import { emptyLedger, ledgerResumeNote, MAX_LEDGER_RESULT, recordCancelled, recordDispatched, recordReturned, settleTasks, unfinishedTasks } from './ledger.js';

describe('ledger', () => {
  const base = () => {
    let l = emptyLedger();
    l = recordDispatched(l, { taskId: 't1', agent: 'reviewer', kind: 'dispatch', task: 'review a.ts', at: 1 });
    l = recordDispatched(l, { taskId: 't2', agent: 'worker-1', kind: 'worker', task: 'count lines', at: 2 });
    l = recordDispatched(l, { taskId: 't3', agent: 'tester', kind: 'dispatch', task: 'run tests', at: 3 });
    return l;
  };

  it('records what was dispatched and what came back, never changing the ledger it was given', () => {
    const start = base();
    const after = recordReturned(recordReturned(start, { taskId: 't1', isError: false, result: 'looks fine', at: 5 }), {
      taskId: 't3',
      isError: true,
      result: 'provider error 500',
      at: 6,
    });
    expect(start.tasks.map((t) => t.status)).toEqual(['running', 'running', 'running']);
    expect(after.tasks.map((t) => [t.taskId, t.status, t.result, t.endedAt])).toEqual([
      ['t1', 'done', 'looks fine', 5],
      ['t2', 'running', undefined, undefined],
      ['t3', 'failed', 'provider error 500', 6],
    ]);
    expect(unfinishedTasks(after).map((t) => t.taskId)).toEqual(['t2', 't3']);
  });

  it('the stop path cancels running tasks (all, or the ones listed); finished ones keep their state', () => {
    const l = recordReturned(base(), { taskId: 't1', isError: false, result: 'ok', at: 4 });
    expect(recordCancelled(l, 9).tasks.map((t) => t.status)).toEqual(['done', 'cancelled', 'cancelled']);
    expect(recordCancelled(l, 9, ['t3']).tasks.map((t) => t.status)).toEqual(['done', 'running', 'cancelled']);
  });

  it('settling drops done tasks (and listed ones) so the ledger stays small', () => {
    const l = recordReturned(base(), { taskId: 't1', isError: false, result: 'ok', at: 4 });
    expect(settleTasks(l).tasks.map((t) => t.taskId)).toEqual(['t2', 't3']);
    expect(settleTasks(l, ['t2']).tasks.map((t) => t.taskId)).toEqual(['t3']);
  });

  it('keeps results short and re-dispatching an id replaces its entry', () => {
    const l = recordReturned(base(), { taskId: 't1', isError: false, result: 'x'.repeat(MAX_LEDGER_RESULT + 50), at: 4 });
    expect(l.tasks[0]?.result?.length).toBe(MAX_LEDGER_RESULT);
    const again = recordDispatched(l, { taskId: 't1', agent: 'reviewer', kind: 'dispatch', task: 'review again', at: 7 });
    expect(again.tasks.filter((t) => t.taskId === 't1')).toEqual([expect.objectContaining({ status: 'running', task: 'review again' })]);
  });

  it('the resume note lists each unfinished task with what happened to it; none when all are done', () => {
    let l = recordReturned(base(), { taskId: 't1', isError: false, result: 'ok', at: 4 });
    l = recordReturned(l, { taskId: 't3', isError: true, result: 'rate limited', at: 5 });
    l = recordCancelled(l, 6, ['t2']);
    expect(ledgerResumeNote(l)).toBe(
      [
        'Unfinished tasks from before (decide whether to run them again):',
        '- t2 run_worker worker-1: count lines — cancelled',
        '- t3 dispatch_to tester: run tests — failed: rate limited',
      ].join('\n'),
    );
    expect(ledgerResumeNote(recordReturned(emptyLedger(), { taskId: 'x', isError: false, result: '', at: 1 }))).toBeUndefined();
    expect(ledgerResumeNote(settleTasks(recordReturned(base(), { taskId: 't1', isError: false, result: 'ok', at: 1 }), ['t2', 't3']))).toBeUndefined();
  });
});
