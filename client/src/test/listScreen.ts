import { screen, within } from '@testing-library/react';
import type { Role } from '../lib/types';
import { loggedInState, makeUser } from './fixtures';
import { renderApp } from './renderWithProviders';

/** Opens a list screen signed in as `role` and waits until its list `listName` shows `row`. */
export async function openListScreen(route: string, listName: string, row: string, role: Role = 'admin') {
  const rendered = renderApp(route, { preloadedState: loggedInState(makeUser(role)) });
  await within(await screen.findByRole('region', { name: listName })).findByText(row);
  return rendered;
}
