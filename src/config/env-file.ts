/** Reads `.env` into the environment when there is one (development); the environment wins. */
export function loadEnvFile(): void {
  try {
    process.loadEnvFile('.env');
  } catch {
    // no .env file: the environment alone configures the service
  }
}
