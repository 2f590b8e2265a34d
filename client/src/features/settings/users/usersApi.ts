import { api, listTags } from '../../../app/api';
import type { Role } from '../../../lib/types';
import type { DeleteResult } from '../shared/types';

/** A company user as GET /api/users lists it. */
export interface CompanyUser {
  id: number;
  username: string;
  role: Exclude<Role, 'super_admin'>;
  posId: number | null;
  posName: string | null;
}

/** POST /api/users: `posId` is absent for an admin. */
export interface NewUserBody {
  username: string;
  password: string;
  role: CompanyUser['role'];
  posId?: number;
}

/** PUT /api/users/{id}: only the role and the point of sale change. */
export interface UserUpdateBody {
  role: CompanyUser['role'];
  posId?: number;
}

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsers: build.query<CompanyUser[], void>({
      query: () => '/users',
      providesTags: (result) => listTags('User', result),
    }),
    createUser: build.mutation<CompanyUser, NewUserBody>({
      query: (body) => ({ url: '/users', method: 'POST', body }),
      invalidatesTags: [{ type: 'User', id: 'LIST' }],
    }),
    updateUser: build.mutation<CompanyUser, { id: number; body: UserUpdateBody }>({
      query: ({ id, body }) => ({ url: `/users/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'User', id }],
    }),
    deleteUser: build.mutation<DeleteResult, number>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'User', id: 'INACTIVE' },
        { type: 'User', id },
        { type: 'User', id: 'LIST' },
      ],
    }),
    /** Sets a user's password; every session of that user ends. */
    resetUserPassword: build.mutation<{ message: string }, { id: number; password: string }>({
      query: ({ id, password }) => ({ url: `/users/${id}/password`, method: 'POST', body: { password } }),
    }),
    getUserUsage: build.query<{ transactions: number }, number>({
      query: (id) => `/users/${id}/usage`,
      keepUnusedDataFor: 0,
    }),
    /** The inactive records, for the list's 'show inactive' filter. */
    getInactiveUsers: build.query<CompanyUser[], void>({
      query: () => ({ url: '/users', params: { status: 'inactive' } }),
      providesTags: [{ type: 'User', id: 'INACTIVE' }],
    }),
    reactivateUser: build.mutation<CompanyUser, number>({
      query: (id) => ({ url: `/users/${id}/reactivate`, method: 'POST' }),
      invalidatesTags: [
        { type: 'User', id: 'LIST' },
        { type: 'User', id: 'INACTIVE' },
      ],
    }),
  }),
});

export const {
  useGetUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useGetUserUsageQuery,
  useGetInactiveUsersQuery,
  useReactivateUserMutation,
  useResetUserPasswordMutation,
} = usersApi;
