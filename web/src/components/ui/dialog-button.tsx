/**
 * A toolbar button that opens a dialog with a Close button under its content. The content is mounted only while
 * the dialog is open, so its queries run then and not before.
 *
 * @example
 * <DialogButton label="Git" title="Git" icon={<GitBranchIcon className="size-4" />} testId="git-button">
 *   <GitPanel projectId={projectId} />
 * </DialogButton>
 */
import { type ReactNode, useState } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";

export function DialogButton(props: {
  label: string;
  ariaLabel?: string;
  title: string;
  icon: ReactNode;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        className={props.className}
        onClick={() => setOpen(true)}
        aria-label={props.ariaLabel ?? props.label}
        data-testid={props.testId}
      >
        {props.icon}
        <span className="hidden sm:inline">{props.label}</span>
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={props.title}>
        {open && props.children}
        <div className="mt-6 flex justify-end">
          <Button variant="outline" size="sm" onClick={() => setOpen(false)}>
            Close
          </Button>
        </div>
      </Dialog>
    </>
  );
}
