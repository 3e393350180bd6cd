/**
 * Values the web and the API must agree on, in one zod-free module so the web can import them without the
 * schema code around them (the API's schemas re-export them).
 */

/** Images per chat message. */
export const MAX_IMAGES_PER_MESSAGE = 5;

/** The content sent for a message of images only. */
export const IMAGE_ONLY_CONTENT = "(Image uploaded)";
