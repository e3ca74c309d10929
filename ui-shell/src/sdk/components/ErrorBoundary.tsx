import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** Rendered instead of the children after a render error; `reset` retries. */
  fallback: (error: unknown, reset: () => void) => ReactNode;
  children?: ReactNode;
}

/**
 * Contains a render failure (typically inside a remote's screen or widget) so
 * the rest of the shell keeps working.
 */
export class ErrorBoundary extends Component<Props, { error: unknown; failed: boolean }> {
  state = { error: undefined as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('UI error contained by ErrorBoundary', error, info.componentStack);
  }

  private reset = () => this.setState({ error: undefined, failed: false });

  render() {
    return this.state.failed ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}
