import { api } from '../../../app/api';
import { entityEndpoints } from '../../../app/entityEndpoints';
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
  endpoints: (build) => {
    const users = entityEndpoints(build, { path: '/users', tag: 'User', inactiveList: true });
    return {
      getUsers: users.list<CompanyUser>(),
      createUser: users.create<CompanyUser, NewUserBody>(),
      updateUser: users.update<CompanyUser, { id: number } & UserUpdateBody>(),
      deleteUser: users.remove<DeleteResult>(),
      /** Sets a user's password; every session of that user ends. */
      resetUserPassword: build.mutation<{ message: string }, { id: number; password: string }>({
        query: ({ id, password }) => ({ url: `/users/${id}/password`, method: 'POST', body: { password } }),
      }),
      getUserUsage: users.usage<{ transactions: number }>(),
      getInactiveUsers: users.inactive<CompanyUser>(),
      reactivateUser: users.reactivate<CompanyUser>(),
    };
  },
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
