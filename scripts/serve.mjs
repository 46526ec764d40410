#!/usr/bin/env node
// Serves the built site (dist/: the app, and the embed page in dist/embed/) on
// http://127.0.0.1:8080/ until stopped. A plain static server: the site needs nothing more.
import { startServer } from '../e2e/support.mjs';

const dist = process.argv[2] || new URL('../dist', import.meta.url).pathname;
const port = Number(process.env.QI_PORT || 8080);
// Isolated, as qi-server serves the app: a search the page no longer wants stops in place.
const server = await startServer(dist, '/', port, { isolated: true });
console.log(`Qi is at ${server.url} (the embed page at ${server.url}embed/); Ctrl-C stops it.`);
