/** Which process this is: behind a load balancer, tells instances apart (matches `docker ps` names). */
import { hostname } from "node:os";

export const INSTANCE_ID = `${hostname()}-${process.pid}`;
