import { Burger, Indicator, type BurgerProps, type MantineBreakpoint } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { attentionAtom } from '@atende/ui-shell/sdk';

/** The phone's menu button, with a red dot while something in the menu waits for the user (the rail's badges are inside). */
export function AttentionBurger({ hiddenFrom, ...props }: BurgerProps & { onClick: () => void; hiddenFrom?: MantineBreakpoint }) {
  const waiting = Object.values(useAtomValue(attentionAtom)).some((n) => n > 0);
  return (
    <Indicator disabled={!waiting} size={9} color="red.8" offset={4} hiddenFrom={hiddenFrom} data-testid="burger-attention">
      <Burger {...props} />
    </Indicator>
  );
}
