/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's base URL the page starts with (`.env`); the user may change it. */
  readonly VITE_API_BASE_URL: string;
}
