/** What a delete did: 'hard' removed the record, 'soft' made it inactive (SPEC.md section 4). */
export interface DeleteResult {
  message: string;
  deleted: 'hard' | 'soft';
}
