/**
 * The images attached to the message being written: at most 5, each uploaded as soon as it
 * is added, so sending only waits for uploads still running. An upload that fails is dropped (the message
 * goes without it rather than not at all), and counted in `failed` so the tray can say so instead of a tile
 * vanishing unexplained.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_IMAGES_PER_MESSAGE } from "@shared/constants";
import { uploadImage } from "./upload-image";

export type Attachment = {
  id: string;
  /** A local preview (object URL) while uploading, then the server URL. */
  previewUrl: string;
  status: "uploading" | "uploaded";
  url: string | null;
};

export { MAX_IMAGES_PER_MESSAGE };

export function useImageAttachments(projectId: string) {
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  /** Images whose upload failed since the note was last dismissed or a message was sent. */
  const [failed, setFailed] = useState(0);
  const countRef = useRef(0);
  const objectUrls = useRef(new Set<string>());
  /** Attachments still in the tray, so an upload that ends after its tile was removed changes nothing. */
  const live = useRef(new Set<string>());
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
        live.current.add(attachment.id);
        void uploadImage(projectId, file).then((url) => {
          // Decided here, not inside a state updater: React may run an updater twice, which counted one
          // failed upload as two.
          if (!live.current.has(attachment.id)) return; // removed meanwhile
          if (!url) {
            live.current.delete(attachment.id);
            revoke(attachment.previewUrl);
            setFailed((n) => n + 1);
            setAttachments((list) => list.filter((a) => a.id !== attachment.id));
            return;
          }
          setAttachments((list) => list.map((a) => (a.id === attachment.id ? { ...a, status: "uploaded", url } : a)));
        });
      }
    },
    [projectId],
  );

  const remove = useCallback((id: string) => {
    live.current.delete(id);
    setAttachments((list) => {
      const gone = list.find((a) => a.id === id);
      if (gone) revoke(gone.previewUrl);
      return list.filter((a) => a.id !== id);
    });
  }, []);

  /** Empties the tray (the message was sent). */
  const clear = useCallback(() => {
    live.current.clear();
    setFailed(0);
    setAttachments((list) => {
      for (const a of list) revoke(a.previewUrl);
      return [];
    });
  }, []);

  const dismissFailed = useCallback(() => setFailed(0), []);

  /** Puts uploaded URLs back (a send the server refused). */
  const restore = useCallback((urls: string[]) => {
    const restored = urls.slice(0, MAX_IMAGES_PER_MESSAGE).map((url): Attachment => ({ id: crypto.randomUUID(), previewUrl: url, status: "uploaded", url }));
    setAttachments((list) => (list.length ? list : restored));
  }, []);

  return {
    attachments,
    uploading: attachments.some((a) => a.status === "uploading"),
    uploadedUrls: attachments.flatMap((a) => (a.url ? [a.url] : [])),
    failed,
    dismissFailed,
    add,
    remove,
    clear,
    restore,
  };
}
