import { describe, expect, it, vi } from 'vitest';
import { loggedInState, makeUser } from '../test/fixtures';
import { mockApi, type MockRequest } from '../test/mockApi';
import { api } from './api';
import { entityEndpoints, listQuery } from './entityEndpoints';
import { makeStore } from './store';

interface Pos {
  id: number;
  name: string;
}

// Points of sale as a slice would declare them, with the users' list showing their names.
const probeApi = api.injectEndpoints({
  endpoints: (build) => {
    const pointsOfSale = entityEndpoints(build, { path: '/pos', tag: 'Pos', inactiveList: true });
    const userLists = [{ type: 'User', id: 'LIST' }] as const;
    return {
      probePos: pointsOfSale.list<Pos>(),
      probeInactivePos: pointsOfSale.inactive<Pos>(),
      probeUsers: listQuery<{ id: number }>(build, '/users', 'User'),
      probeUpdatePos: pointsOfSale.update<Pos, Pos>(userLists),
      probeDeletePos: pointsOfSale.remove<unknown>(userLists),
    };
  },
  overrideExisting: true,
});

const routes = {
  'GET /api/pos': { body: [{ id: 3, name: 'Caja' }] },
  'GET /api/users': { body: [{ id: 7 }] },
  'PUT /api/pos/3': { body: { id: 3, name: 'Caja 2' } },
  'DELETE /api/pos/3': { body: { message: 'ok', deleted: 'soft' } },
};

/** A store with the three lists loaded (and kept subscribed), and how often each was fetched. */
async function loadedLists() {
  const { requests } = mockApi(routes);
  const store = makeStore(loggedInState(makeUser('admin')));
  await store.dispatch(probeApi.endpoints.probePos.initiate());
  await store.dispatch(probeApi.endpoints.probeInactivePos.initiate());
  await store.dispatch(probeApi.endpoints.probeUsers.initiate());
  const fetches = () => ({
    active: requests.filter(isGet('/api/pos', '')).length,
    inactive: requests.filter(isGet('/api/pos', '?status=inactive')).length,
    users: requests.filter(isGet('/api/users', '')).length,
  });
  return { store, fetches };
}

function isGet(path: string, search: string) {
  return (request: MockRequest) => request.method === 'GET' && request.path === path && request.url.search === search;
}

describe('entity endpoints', () => {
  it('reload both lists and what also shows the record after a delete', async () => {
    const { store, fetches } = await loadedLists();
    await store.dispatch(probeApi.endpoints.probeDeletePos.initiate(3));
    await vi.waitFor(() => expect(fetches()).toEqual({ active: 2, inactive: 2, users: 2 }));
  });

  it('reload the lists holding the record, not the inactive one, after an update', async () => {
    const { store, fetches } = await loadedLists();
    await store.dispatch(probeApi.endpoints.probeUpdatePos.initiate({ id: 3, name: 'Caja 2' }));
    await vi.waitFor(() => expect(fetches()).toEqual({ active: 2, inactive: 1, users: 2 }));
  });
});
