/**
 * A git remote's fields, shared by the Git panel's connect form and "Import from Git": the HTTPS URL, the
 * branch, and a username and token for a private repository. The caller keeps the values and says what the
 * token field means for it.
 */
import { Input, Label } from "../../components/ui/field";

export type RemoteValues = { url: string; branch: string; username: string; token: string };

export function RemoteFields({
  idPrefix,
  values,
  onChange,
  urlPlaceholder,
  tokenLabel,
}: {
  /** Makes the inputs' ids unique on the page ("git" gives git-url, git-branch, …). */
  idPrefix: string;
  values: RemoteValues;
  onChange: (values: RemoteValues) => void;
  urlPlaceholder: string;
  tokenLabel: string;
}) {
  const field = (key: keyof RemoteValues) => ({
    id: `${idPrefix}-${key}`,
    value: values[key],
    onChange: (e: { target: { value: string } }) => onChange({ ...values, [key]: e.target.value }),
  });
  return (
    <>
      <div>
        <Label htmlFor={`${idPrefix}-url`}>Repository URL</Label>
        <Input {...field("url")} placeholder={urlPlaceholder} autoComplete="off" />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div>
          <Label htmlFor={`${idPrefix}-branch`}>Branch</Label>
          <Input {...field("branch")} placeholder="main" autoComplete="off" />
        </div>
        <div>
          <Label htmlFor={`${idPrefix}-username`}>Username (optional)</Label>
          <Input {...field("username")} autoComplete="off" />
        </div>
      </div>
      <div>
        <Label htmlFor={`${idPrefix}-token`}>{tokenLabel}</Label>
        <Input {...field("token")} type="password" autoComplete="new-password" />
      </div>
    </>
  );
}
