import { useFormat } from '../app/useFormat';
import { formatDocument, groupSeparator, isAllDigits, normalizeDocument } from '../lib/document';
import { caretAfterKept, FormattedField, type FormattedFieldProps } from './FormattedField';

export interface DocumentFieldProps extends Omit<FormattedFieldProps, 'show' | 'store' | 'isMark' | 'prefix'> {
  /** The document as stored (normalised). */
  value: string;
  onChange: (document: string) => void;
}

/** Where the caret goes to stay after `kept` characters of the document in the shown text. */
export function caretAfter(shown: string, kept: number, separator: string): number {
  return caretAfterKept(shown, kept, (char) => char === separator);
}

/**
 * An ID document input: what is typed or pasted is normalised as the server does it (dots and
 * spaces dropped, letters upper-cased), and an all-digit document is shown grouped by thousands
 * (1.098.765.432); `onChange` receives the normalised document.
 */
export function DocumentField(props: DocumentFieldProps) {
  const format = useFormat();
  const separator = groupSeparator(format.locale);
  // The grouping of an all-digit document (a comma in English) is not part of it.
  const store = (typed: string) => {
    const normalized = normalizeDocument(typed);
    const ungrouped = normalized.split(separator).join('');
    return isAllDigits(ungrouped) ? ungrouped : normalized;
  };
  const groupMark = isAllDigits(props.value) ? separator : '';
  return (
    <FormattedField
      autoCapitalize="characters"
      spellCheck={false}
      {...props}
      show={(document) => formatDocument(document, format.locale)}
      store={store}
      isMark={(char) => char === groupMark}
    />
  );
}
