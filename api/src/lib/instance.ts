/**
 * Which process this is: behind a load balancer, tells instances apart (matches `docker ps` names). Recorded
 * with each running answer and each sandbox lease, so the admin page can list them per instance.
 */
import { hostname } from "node:os";

export const INSTANCE_ID = `${hostname()}-${process.pid}`;
