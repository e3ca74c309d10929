/**
 * `Tooltip`, `Menu` and `Popover` with Mantine's API, for the shell's first
 * screens: their code (Mantine's floating components and floating-ui, ~25 KB
 * gzip) is fetched when the user first points at or clicks one of them, or
 * once the first screen is idle (`loadOverlays`, called with the remotes'
 * preload), instead of before the ticket screen can paint (docs/performance.md U1).
 *
 * Until then each renders only its target, unchanged, with handlers that
 * fetch the code. Then:
 * - a tooltip keeps its target in place and adds Mantine's `Tooltip` in
 *   target mode beside it, open at once when the pointer is still there;
 * - a menu or popover becomes Mantine's, open when it was clicked (or when
 *   its controlled `opened` turned true). Its target element is then created
 *   anew, so a popover's target must not hold state the user is editing
 *   (the composer anchors its quick-message list on an overlay for that reason).
 *
 * Remotes keep using `@mantine/core` directly: the federation shares all of
 * Mantine with them, these are the shell's own wrappers.
 */
import type { Menu as MantineMenu, Popover as MantinePopover, TooltipProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import {
  Children, cloneElement, createContext, use, useEffect, useRef, useState, useSyncExternalStore,
  type ComponentType, type PointerEvent as ReactPointerEvent, type ReactElement, type ReactNode, type Ref, type SyntheticEvent,
} from 'react';

type Parts = typeof import('./overlay-parts.ts');

let parts: Parts | undefined;
let loading: Promise<Parts> | undefined;
const listeners = new Set<() => void>();

/** Fetches the floating components (once; a failed fetch may be retried). */
export function loadOverlays(): Promise<Parts> {
  loading ??= import('./overlay-parts.ts').then(
    (m) => {
      parts = m;
      listeners.forEach((fn) => fn());
      return m;
    },
    (e: unknown) => {
      loading = undefined;
      throw e;
    },
  );
  return loading;
}

const fetchParts = () => void loadOverlays().catch((e: unknown) => console.error('Overlay components failed to load', e));
const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => void listeners.delete(fn);
};
const current = () => parts;
const useParts = () => useSyncExternalStore(subscribe, current, current);

type Handler = ((e: SyntheticEvent) => void) | undefined;
/** Both handlers, the first one first (Mantine calls its own before the child's). */
const both = (a: unknown, b: unknown): Handler => {
  const f = a as Handler;
  const g = b as Handler;
  return f && g ? (e) => { f(e); g(e); } : f ?? g;
};

type AnyProps = Record<string, unknown>;
type Element = ReactElement<AnyProps>;
const onlyChild = (children: ReactNode) => Children.only(children) as Element;
const refOf = (el: Element) => el.props.ref as Ref<HTMLElement> | undefined;

/** Events Mantine's Tooltip passes from its own props to its target. */
const TOOLTIP_TARGET_EVENTS = ['onClick', 'onMouseEnter', 'onMouseLeave', 'onMouseMove', 'onPointerDown', 'onPointerEnter'] as const;

function LazyTooltip(props: TooltipProps & { ref?: Ref<HTMLElement> } & AnyProps) {
  const { children, ref, openDelay = 0, disabled = false, ...rest } = props;
  const p = useParts();
  const target = useRef<HTMLElement>(null);
  const child = onlyChild(children);
  const mergedRef = useMergedRef(target, refOf(child), ref);
  const hovered = useRef(false);
  const [openFirst, setOpenFirst] = useState(false);
  // Tooltips are for a mouse (Mantine's default `events`): a touch does not open one.
  const [touch, setTouch] = useState(false);
  const pointer = (e: ReactPointerEvent) => {
    if ((e.pointerType === 'touch') !== touch) setTouch(e.pointerType === 'touch');
  };

  const childProps: AnyProps = { ref: mergedRef };
  for (const name of TOOLTIP_TARGET_EVENTS) childProps[name] = both(rest[name], child.props[name]);
  TOOLTIP_TARGET_EVENTS.forEach((name) => delete rest[name]);
  childProps.onPointerDown = both(childProps.onPointerDown, pointer);
  childProps.onPointerEnter = both(childProps.onPointerEnter, (e: ReactPointerEvent) => {
    pointer(e);
    if (p || disabled || e.pointerType === 'touch') return;
    hovered.current = true;
    const since = performance.now();
    void loadOverlays().then(() => {
      setTimeout(() => hovered.current && setOpenFirst(true), Math.max(0, openDelay - (performance.now() - since)));
    }, () => undefined);
  });
  childProps.onPointerLeave = both(child.props.onPointerLeave, () => {
    hovered.current = false;
  });
  childProps.onFocus = both(child.props.onFocus, () => p || fetchParts());

  return (
    <>
      {cloneElement(child, childProps)}
      {p && (
        // Remounted once, open, when the first hover is what fetched it.
        <p.Tooltip key={openFirst ? 'first-hover' : 'idle'} {...rest} openDelay={openDelay} disabled={disabled || touch} defaultOpened={openFirst} target={target} />
      )}
    </>
  );
}

/** Mantine's `Tooltip` (children mode), fetched on the first hover. */
export const Tooltip = LazyTooltip as (props: TooltipProps) => ReactNode;

interface Pending {
  controlled: boolean;
  hover: boolean;
  activate(): void;
}
/** Set by a menu or popover whose code has not been fetched; `null` inside a real one. */
const PendingContext = createContext<Pending | null>(null);

type RootProps = AnyProps & { opened?: boolean; defaultOpened?: boolean; trigger?: string; children?: ReactNode };

function lazyRoot(get: (p: Parts) => ComponentType<AnyProps>) {
  return function LazyOverlayRoot(props: RootProps) {
    const p = useParts();
    const [clicked, setClicked] = useState(false);
    const [live, setLive] = useState(false);
    const wanted = clicked || props.opened === true || props.defaultOpened === true;
    if (p && wanted && !live) setLive(true);
    useEffect(() => {
      if (wanted && !p) fetchParts();
    }, [wanted, p]);
    if (p && (live || wanted)) {
      const Real = get(p);
      // An uncontrolled one opens as it was clicked; a controlled one follows `opened`.
      const defaultOpened = props.opened === undefined ? (props.defaultOpened ?? clicked) : props.defaultOpened;
      return <PendingContext value={null}><Real {...props} defaultOpened={defaultOpened} /></PendingContext>;
    }
    const pending: Pending = {
      controlled: props.opened !== undefined,
      hover: props.trigger === 'hover' || props.trigger === 'click-hover',
      activate: () => setClicked(true),
    };
    return <PendingContext value={pending}>{props.children}</PendingContext>;
  };
}

function lazyTarget(get: (p: Parts) => ComponentType<AnyProps>) {
  return function LazyOverlayTarget(props: AnyProps & { children?: ReactNode }) {
    const p = useParts();
    const pending = use(PendingContext);
    if (!pending) {
      const Real = get(p!);
      return <Real {...props} />;
    }
    const child = onlyChild(props.children);
    return cloneElement(child, {
      // Mantine toggles an uncontrolled one on click; a controlled one is opened by the child's own handler.
      onClick: pending.controlled ? child.props.onClick : both(child.props.onClick, pending.activate),
      onPointerEnter: both(child.props.onPointerEnter, pending.hover && !pending.controlled ? pending.activate : fetchParts),
      onFocus: both(child.props.onFocus, fetchParts),
    });
  };
}

/** A part that only renders inside a real menu or popover (dropdowns, items…). */
function lazyPart(get: (p: Parts) => ComponentType<AnyProps>) {
  return function LazyOverlayPart(props: AnyProps) {
    const p = useParts();
    const pending = use(PendingContext);
    if (!p || pending) return null;
    const Real = get(p);
    return <Real {...props} />;
  };
}

const MENU_PARTS = ['Item', 'Label', 'Dropdown', 'Divider', 'Search', 'CheckboxItem', 'CheckboxGroup', 'RadioItem', 'RadioGroup', 'ContextMenu'] as const;
const anyPart = (v: unknown) => v as ComponentType<AnyProps>;

const LazyMenu = Object.assign(lazyRoot((p) => anyPart(p.Menu)), {
  Target: lazyTarget((p) => anyPart(p.Menu.Target)),
  Sub: Object.assign(lazyPart((p) => anyPart(p.Menu.Sub)), {
    Target: lazyPart((p) => anyPart(p.Menu.Sub.Target)),
    Dropdown: lazyPart((p) => anyPart(p.Menu.Sub.Dropdown)),
    Item: lazyPart((p) => anyPart(p.Menu.Sub.Item)),
  }),
  ...Object.fromEntries(MENU_PARTS.map((name) => [name, lazyPart((p) => anyPart(p.Menu[name]))])),
});

/** Mantine's `Menu`, fetched on the first click of its target. */
export const Menu = LazyMenu as unknown as typeof MantineMenu;

const LazyPopover = Object.assign(lazyRoot((p) => anyPart(p.Popover)), {
  Target: lazyTarget((p) => anyPart(p.Popover.Target)),
  Dropdown: lazyPart((p) => anyPart(p.Popover.Dropdown)),
});

/** Mantine's `Popover`, fetched on the first click of its target or when `opened` first turns true. */
export const Popover = LazyPopover as unknown as typeof MantinePopover;
