import { api } from '../../app/api';
import type { AuthResponse } from '../../lib/types';

export interface Credentials {
  username: string;
  password: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthResponse, Credentials>({
      query: (credentials) => ({ url: '/login', method: 'POST', body: credentials }),
    }),
  }),
});

export const { useLoginMutation } = authApi;
