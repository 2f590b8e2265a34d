// The endpoints a kind of record has in common (points of sale, users, categories, products,
// customers, companies): the server serves each kind under one path with the same routes, and the
// cache tags its entries the same way: `{ type, id }` for a record, `LIST` for the active list and
// `INACTIVE` for the list of inactive ones. A slice takes the endpoints its records have and adds
// the tags of what else shows them.

import type { EndpointBuilder, TagDescription } from '@reduxjs/toolkit/query';
import { listTags, type TagType, type baseQuery } from './api';

/** The `build` that `api.injectEndpoints` hands to `endpoints`. */
type ApiBuilder = EndpointBuilder<typeof baseQuery, TagType, 'api'>;

/** Cache entries a change also makes stale: the lists and figures that show the record. */
type Tags = readonly TagDescription<TagType>[];

interface RecordKind {
  /** Where the server serves them, e.g. '/categories'. */
  path: string;
  tag: TagType;
  /**
   * The screen lists the inactive records apart (`inactive()`): deleting and reactivating move a
   * record between the two lists.
   */
  inactiveList?: boolean;
}

/** GET `url`: records of the kind `tag`, cached one by one and as the list. */
export function listQuery<T extends { id: number }>(build: ApiBuilder, url: string, tag: TagType) {
  return build.query<T[], void>({
    query: () => url,
    providesTags: (result) => listTags(tag, result),
  });
}

export function entityEndpoints(build: ApiBuilder, { path, tag, inactiveList = false }: RecordKind) {
  const list = { type: tag, id: 'LIST' } as const;
  const inactive = { type: tag, id: 'INACTIVE' } as const;
  /** A record deleted or reactivated: itself, the lists it leaves and joins, and `also`. */
  const movedTags = (id: number, also: Tags) => [{ type: tag, id }, list, ...(inactiveList ? [inactive] : []), ...also];

  return {
    list: <T extends { id: number }>(url = path) => listQuery<T>(build, url, tag),
    /** The inactive records, for the list's 'show inactive' filter. */
    inactive: <T>() =>
      build.query<T[], void>({
        query: () => ({ url: path, params: { status: 'inactive' } }),
        providesTags: [inactive],
      }),
    /** What refers to a record; asked right before deleting it, so never served from the cache. */
    usage: <Usage>() =>
      build.query<Usage, number>({
        query: (id) => `${path}/${id}/usage`,
        keepUnusedDataFor: 0,
      }),
    create: <T, Input>(also: Tags = []) =>
      build.mutation<T, Input>({
        query: (body) => ({ url: path, method: 'POST', body }),
        invalidatesTags: [list, ...also],
      }),
    /** PUT of a record, its fields beside its id: `{ id, ...fields }`. */
    update: <T, Arg extends { id: number }>(also: Tags = []) =>
      build.mutation<T, Arg>({
        query: ({ id, ...body }) => ({ url: `${path}/${id}`, method: 'PUT', body }),
        invalidatesTags: (_result, _error, { id }) => [{ type: tag, id }, ...also],
      }),
    /** DELETE: the record leaves the active list (into the inactive one, where the server keeps it). */
    remove: <Result>(also: Tags = []) =>
      build.mutation<Result, number>({
        query: (id) => ({ url: `${path}/${id}`, method: 'DELETE' }),
        invalidatesTags: (_result, _error, id) => movedTags(id, also),
      }),
    reactivate: <T>(also: Tags = []) =>
      build.mutation<T, number>({
        query: (id) => ({ url: `${path}/${id}/reactivate`, method: 'POST' }),
        invalidatesTags: (_result, _error, id) => movedTags(id, also),
      }),
  };
}
