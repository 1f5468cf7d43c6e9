import { EventEmitter } from 'node:events';
import type { DataTopic } from '@nest/contracts';

/**
 * In-process notice that a company's data changed (a sortie began or ended, a result arrived, an alarm
 * was raised or processed, a timed task ran). Modules call `changed`; the push hub turns the notices into
 * throttled 380 DATA_CHANGED messages so open data screens refetch their figures.
 */
export class DataChanges extends EventEmitter<{ changed: [companyId: string, topic: DataTopic] }> {
  changed(companyId: string, topic: DataTopic): void {
    this.emit('changed', companyId, topic);
  }
}
