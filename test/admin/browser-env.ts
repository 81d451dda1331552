// Imported first by the admin browser test: the app server runs in production
// mode, which refuses the development credentials key, and this test process
// (its worker opens the tokens the server sealed) must use the same key.
import { randomBytes } from "node:crypto";

process.env.CREDENTIALS_KEY = randomBytes(32).toString("base64");
