import {
  autoUpdate,
  flip,
  FloatingFocusManager,
  FloatingPortal,
  offset,
  shift,
  size,
  useClick,
  useDismiss,
  useFloating,
  useInteractions,
  useListNavigation,
  useRole,
  type Placement,
} from '@floating-ui/react';
import { CheckIcon } from '@heroicons/react/24/outline';
import { useRef, useState, type ReactNode } from 'react';

export interface MenuEntry {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  onSelect: () => void;
  danger?: boolean;
  /** Set for a choice among options (a `menuitemradio`): whether it is the current one. */
  checked?: boolean;
  lang?: string;
}

export interface MenuProps {
  /** The trigger's accessible name. */
  label: string;
  title?: string;
  /** The trigger's content (an icon, a short code). */
  trigger: ReactNode;
  triggerClassName?: string;
  items: readonly MenuEntry[];
  listClassName?: string;
  placement?: Placement;
  testId?: string;
}

/**
 * A button that opens a list of actions. The list floats above the page (rendered at the end of
 * the document, so no scroll box or `overflow: hidden` can clip it), flips above the button when
 * there is no room below and shifts to stay on screen. Keyboard: Enter, Space or ArrowDown on the
 * button opens it on the first item, the arrows move, Home/End jump, Escape closes it and gives
 * the focus back to the button.
 */
export function Menu({ label, title, trigger, triggerClassName, items, listClassName, placement = 'bottom-end', testId }: MenuProps) {
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState<number | null>(null);
  const listRef = useRef<Array<HTMLElement | null>>([]);

  const { refs: floatingRefs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement,
    strategy: 'fixed',
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(6),
      flip({ padding: 8 }),
      shift({ padding: 8 }),
      size({
        padding: 8,
        apply({ availableHeight, elements }) {
          elements.floating.style.maxHeight = `${Math.max(120, availableHeight)}px`;
        },
      }),
    ],
  });

  const { getReferenceProps, getFloatingProps, getItemProps } = useInteractions([
    useClick(context),
    useDismiss(context),
    useRole(context, { role: 'menu' }),
    useListNavigation(context, { listRef, activeIndex, onNavigate: setActiveIndex, loop: true }),
  ]);

  const { setReference, setFloating } = floatingRefs;

  function choose(entry: MenuEntry) {
    setOpen(false);
    entry.onSelect();
  }

  return (
    <>
      <button
        type="button"
        ref={setReference}
        className={triggerClassName ?? 'icon-button'}
        aria-label={label}
        title={title ?? label}
        data-testid={testId}
        {...getReferenceProps()}
      >
        {trigger}
      </button>
      {open ? (
        <FloatingPortal>
          <FloatingFocusManager context={context} modal={false} initialFocus={-1}>
            <div
              ref={setFloating}
              className={['menu-list', 'menu-floating', listClassName].filter(Boolean).join(' ')}
              style={floatingStyles}
              {...getFloatingProps()}
            >
              {items.map((entry, index) => (
                <button
                  key={entry.key}
                  type="button"
                  role={entry.checked === undefined ? 'menuitem' : 'menuitemradio'}
                  aria-checked={entry.checked}
                  lang={entry.lang}
                  className={entry.danger ? 'menu-item menu-item-danger' : 'menu-item'}
                  ref={(node) => {
                    listRef.current[index] = node;
                  }}
                  tabIndex={activeIndex === index ? 0 : -1}
                  {...getItemProps({ onClick: () => choose(entry) })}
                >
                  {entry.icon}
                  <span className="menu-item-label">{entry.label}</span>
                  {entry.checked ? <CheckIcon className="menu-item-check" aria-hidden="true" /> : null}
                </button>
              ))}
            </div>
          </FloatingFocusManager>
        </FloatingPortal>
      ) : null}
    </>
  );
}
