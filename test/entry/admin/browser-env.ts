// Imported first by the tests that serve the production build: the app server
// runs in production mode, which refuses the development credentials key, and
// the test process (its worker opens the tokens the server sealed) must use
// the same key.
import { randomBytes } from "node:crypto";

process.env.CREDENTIALS_KEY = randomBytes(32).toString("base64");
