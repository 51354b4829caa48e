"""The sample agent app. Its behaviour is droid.agent's console agent, run as this
package (`droidsim agent --as com.example.assistant`); it declares no functions."""
