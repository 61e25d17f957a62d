// Validates the configuration as the service will at start-up, and says what is wrong (npm start runs
// it before building, so a refused configuration fails in a second rather than after the build).
import { ConfigError, loadEnv } from "../lib/env";

try {
  loadEnv();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`\nService failed to start: ${err.message}\n`);
  process.exit(1);
}
