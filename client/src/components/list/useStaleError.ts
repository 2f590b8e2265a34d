import { useState } from 'react';

/**
 * A form's error that goes away once the user edits a field after it was shown (it speaks of
 * values no longer there, e.g. "name and document are required" after both were filled in), and
 * comes back with the next submit if it still holds.
 */
export function useStaleError(error: string | null | undefined) {
  const [edited, setEdited] = useState<string | null | undefined>(null);
  return {
    shown: error && error !== edited ? error : null,
    /** A field changed. */
    onEdit: () => setEdited(error),
    /** The form was submitted. */
    onSubmit: () => setEdited(null),
  };
}
