// The list itself (GET /api/pos) is tenant data loaded at login: app/tenantApi.ts.
import { api } from '../../../app/api';
import { entityEndpoints } from '../../../app/entityEndpoints';
import type { PointOfSale } from '../../../lib/types';
import type { DeleteResult } from '../shared/types';

/** Users show the name of their point of sale. */
const userLists = [{ type: 'User', id: 'LIST' }] as const;

export const posApi = api.injectEndpoints({
  endpoints: (build) => {
    const pointsOfSale = entityEndpoints(build, { path: '/pos', tag: 'Pos', inactiveList: true });
    return {
      createPos: pointsOfSale.create<PointOfSale, { name: string }>(),
      updatePos: pointsOfSale.update<PointOfSale, { id: number; name: string }>(userLists),
      deletePos: pointsOfSale.remove<DeleteResult>(userLists),
      getPosUsage: pointsOfSale.usage<{ users: number; transactions: number }>(),
      getInactivePos: pointsOfSale.inactive<PointOfSale>(),
      reactivatePos: pointsOfSale.reactivate<PointOfSale>(userLists),
    };
  },
});

export const {
  useCreatePosMutation,
  useUpdatePosMutation,
  useDeletePosMutation,
  useGetPosUsageQuery,
  useGetInactivePosQuery,
  useReactivatePosMutation,
} = posApi;
