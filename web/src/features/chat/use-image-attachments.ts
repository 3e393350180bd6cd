/**
 * The images attached to the message being written (spec §2, §5): at most 5, each uploaded as soon as it
 * is added, so sending only waits for uploads still running. An upload that fails is dropped silently.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { uploadImage } from "./upload-image";

export type Attachment = {
  id: string;
  /** A local preview (object URL) while uploading, then the server URL. */
  previewUrl: string;
  status: "uploading" | "uploaded";
  url: string | null;
};

/** Spec §9 (the same number as the API's MAX_IMAGES_PER_MESSAGE, not imported: that module brings zod along). */
export const MAX_IMAGES_PER_MESSAGE = 5;

export function useImageAttachments(projectId: string) {
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const countRef = useRef(0);
  const objectUrls = useRef(new Set<string>());
  countRef.current = attachments.length;

  useEffect(() => {
    const urls = objectUrls.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const revoke = (url: string) => {
    if (!objectUrls.current.delete(url)) return;
    URL.revokeObjectURL(url);
  };

  const add = useCallback(
    (files: Iterable<File>) => {
      const room = MAX_IMAGES_PER_MESSAGE - countRef.current;
      const images = [...files].filter((f) => f.type.startsWith("image/")).slice(0, Math.max(0, room));
      if (!images.length) return;
      countRef.current += images.length;
      const added = images.map((file) => {
        const previewUrl = URL.createObjectURL(file);
        objectUrls.current.add(previewUrl);
        return { file, attachment: { id: crypto.randomUUID(), previewUrl, status: "uploading", url: null } satisfies Attachment };
      });
      setAttachments((list) => [...list, ...added.map((a) => a.attachment)]);
      for (const { file, attachment } of added) {
        void uploadImage(projectId, file).then((url) => {
          setAttachments((list) => {
            if (!list.some((a) => a.id === attachment.id)) return list; // removed meanwhile
            if (!url) {
              revoke(attachment.previewUrl);
              return list.filter((a) => a.id !== attachment.id);
            }
            return list.map((a) => (a.id === attachment.id ? { ...a, status: "uploaded", url } : a));
          });
        });
      }
    },
    [projectId],
  );

  const remove = useCallback((id: string) => {
    setAttachments((list) => {
      const gone = list.find((a) => a.id === id);
      if (gone) revoke(gone.previewUrl);
      return list.filter((a) => a.id !== id);
    });
  }, []);

  /** Empties the tray (the message was sent). */
  const clear = useCallback(
    () =>
      setAttachments((list) => {
        for (const a of list) revoke(a.previewUrl);
        return [];
      }),
    [],
  );

  /** Puts uploaded URLs back (a send the server refused). */
  const restore = useCallback((urls: string[]) => {
    const restored = urls.slice(0, MAX_IMAGES_PER_MESSAGE).map((url): Attachment => ({ id: crypto.randomUUID(), previewUrl: url, status: "uploaded", url }));
    setAttachments((list) => (list.length ? list : restored));
  }, []);

  return {
    attachments,
    uploading: attachments.some((a) => a.status === "uploading"),
    uploadedUrls: attachments.flatMap((a) => (a.url ? [a.url] : [])),
    add,
    remove,
    clear,
    restore,
  };
}
