/** What a delete did: 'hard' removed the record, 'soft' made it inactive (docs/decisions.md, "Deleting"). */
export interface DeleteResult {
  message: string;
  deleted: 'hard' | 'soft';
}
