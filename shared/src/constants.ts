/**
 * Values the web and the API must agree on, in one zod-free module so the web can import them without the
 * schema code around them (the API's schemas re-export them).
 */

/** Images per chat message. */
export const MAX_IMAGES_PER_MESSAGE = 5;

/** The content sent for a message of images only. */
export const IMAGE_ONLY_CONTENT = "(Image uploaded)";

/** Characters in one chat message. */
export const MAX_MESSAGE_CHARS = 100_000;

/** What an over-long message is told, in the composer and from the API alike. */
export const tooLongMessage = (length: number) =>
  `This message is ${length.toLocaleString("en")} characters long; the limit is ${MAX_MESSAGE_CHARS.toLocaleString("en")}. Shorten it, or put the long text in a project file and refer to it.`;
