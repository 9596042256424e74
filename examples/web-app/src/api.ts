// The typed client for the base URL the user chose, with the token the user typed. The token is
// kept in sessionStorage (this tab only, gone when it closes) and never in the build: everything a
// build inlines is readable by anyone who loads the page.
import { createClient, type CloudApiClient } from '@cloudapi/client';

const TOKEN_KEY = 'cloudapi-token';

export const savedToken = (): string => sessionStorage.getItem(TOKEN_KEY) ?? '';

export const saveToken = (token: string): void => sessionStorage.setItem(TOKEN_KEY, token);

/** A client whose token is read before every call, so a token typed again is used at once. */
export const connect = (baseUrl: string): CloudApiClient => createClient({ baseUrl, token: () => savedToken() || undefined });
